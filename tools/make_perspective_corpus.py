"""Write the embedded perspective data (data/perspective/) in the layout of the Perspective Argument Retrieval release.

Everything here was written for this project: the eight questions, their German, French and Italian wording, and
all arguments are our own text, modelled on the kind of short comment a Swiss candidate leaves on a voting-advice
questionnaire. Nothing is copied from smartvote, x-stance or the shared task's data. The texts are data, one file per
issue in tools/specs/perspective/; this script turns them into the corpus. Run from the repository root:

    .venv/bin/python -m tools.make_perspective_corpus [--out DIR]

The output is deterministic: every random choice (which politician wrote which arguments, their profiles, the
properties of the perspective queries) comes from one generator with a fixed seed, nothing depends on the clock or on
set order, and JSON is written with fixed settings, so a second run writes byte-identical files. The script checks
its own output before it finishes and exits with status 1 if a check fails (see `check`). data/perspective/README.md
describes the data.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from argrank.tracks.perspective.data import QUERY_PROPERTY_TO_CORPUS

DATA = Path(__file__).resolve().parent.parent / "data" / "perspective"
SPECS = Path(__file__).resolve().parent / "specs" / "perspective"
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SEED = 20240501
FIRST_ARGUMENT_ID = 1000
FIRST_BASELINE_QUERY_ID = 1
FIRST_PERSPECTIVE_QUERY_ID = 101
LANGUAGES = ("de", "fr", "it")
SPLITS = ("train", "dev", "test")
STANCES = ("FAVOR", "AGAINST")
ISSUE_KEYS = ("key", "split", "topic", "lean", "questions")

# --------------------------------------------------------------------------------------------------
# profile values (German, capitalised as in the real release)

GENDERS = ("Männlich", "Weiblich")
AGES = ("18-34", "35-49", "50-64", "65+")
RESIDENCES = ("Stadt", "Agglomeration", "Land")
CIVIL_STATUSES = ("Ledig", "Verheiratet", "Geschieden", "Verwitwet")
DENOMINATIONS = ("Römisch-katholisch", "Evangelisch-reformiert", "Konfessionslos", "Andere", "Nicht bekannt")
EDUCATIONS = ("Obligatorische Schule", "Berufslehre", "Matura", "Höhere Berufsbildung", "Fachhochschule", "Universität")
SPECTRUM = ("Links", "Mitte-Links", "Mitte", "Mitte-Rechts", "Rechts")  # left to right
POLITICAL_ISSUES = (  # the eight smartvote issue labels the released evaluator knows
    "Offene Aussenpolitik",
    "Liberale Wirtschaftspolitik",
    "Restriktive Finanzpolitik",
    "Law & Order",
    "Restriktive Migrationspolitik",
    "Ausgebauter Umweltschutz",
    "Ausgebauter Sozialstaat",
    "Liberale Gesellschaft",
)
# How much each spectrum position (left to right) cares about each issue.
ISSUE_WEIGHTS = {
    "Offene Aussenpolitik": (4, 4, 3, 1, 0.3),
    "Liberale Wirtschaftspolitik": (0.3, 1, 3, 4, 3),
    "Restriktive Finanzpolitik": (0.3, 0.5, 2, 4, 4),
    "Law & Order": (0.3, 0.5, 2, 3, 5),
    "Restriktive Migrationspolitik": (0.2, 0.3, 1, 3, 6),
    "Ausgebauter Umweltschutz": (6, 4, 2, 0.5, 0.3),
    "Ausgebauter Sozialstaat": (5, 4, 2, 0.5, 0.3),
    "Liberale Gesellschaft": (4, 3, 2, 2, 0.5),
}
# The keys of a perspective query's `demographic_property` and the corpus field each one reads.
QUERY_PROPERTIES = QUERY_PROPERTY_TO_CORPUS

# --------------------------------------------------------------------------------------------------
# the issues and their arguments: data, in tools/specs/perspective/issue-<n>.yaml


def load_issues(folder: Path = SPECS) -> list[dict]:
    """The issues of folder/issue-<n>.yaml in the order of n, as the files have them (tools/specs/README.md).

    Each file is checked for its keys, so that a misspelt key fails here rather than drops arguments silently.
    """
    paths = sorted(folder.glob("issue-*.yaml"), key=lambda path: int(path.stem.removeprefix("issue-")))
    if [int(path.stem.removeprefix("issue-")) for path in paths] != list(range(1, len(paths) + 1)):
        raise ValueError(f"{folder}: the issue files are not issue-1.yaml, issue-2.yaml, … without gaps")
    issues = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            issue = yaml.load(handle, Loader=_YAML_LOADER)
        unknown = set(issue) - {*ISSUE_KEYS, "duplicates", *LANGUAGES}
        missing = {*ISSUE_KEYS, *LANGUAGES} - set(issue)
        if unknown or missing:
            raise ValueError(f"{path}: unknown keys {sorted(unknown)}, missing keys {sorted(missing)}")
        if issue["split"] not in SPLITS or set(issue["questions"]) != set(LANGUAGES):
            raise ValueError(f"{path}: split {issue['split']!r} or the questions' languages are wrong")
        for language in LANGUAGES:
            if not set(issue[language]) <= set(STANCES):
                raise ValueError(f"{path}: {language} has stances {sorted(issue[language])}, not {STANCES}")
        issues.append(issue)
    return issues


def arguments_of(issue: dict, language: str) -> list[tuple[str, str, dict[str, str]]]:
    """(stance, text, hints) of the issue's arguments in `language`: FAVOR first, each stance in file order."""
    return [
        (stance, entry, {}) if isinstance(entry, str) else (stance, entry["text"], dict(entry["hints"]))
        for stance in STANCES
        for entry in issue[language].get(stance, [])
    ]


ISSUES = load_issues()
# The texts two politicians wrote word for word; the check expects exactly these to repeat, each twice.
DUPLICATES = tuple(text for issue in ISSUES for text in issue.get("duplicates", []))

# --------------------------------------------------------------------------------------------------
# building the corpus


@dataclass
class Argument:
    issue: int  # index into ISSUES
    language: str
    stance: str  # FAVOR or AGAINST
    text: str
    hints: dict[str, str]
    spectrum: str = ""
    argument_id: int = 0
    profile: dict = field(default_factory=dict)


def pick(rng: random.Random, values, weights):
    return rng.choices(values, weights=weights, k=1)[0]


def spectrum_weights(lean: float, stance: str) -> list[float]:
    """How likely each spectrum position (left to right) is to hold `stance` on an issue with `lean`."""
    sign = 1.0 if stance == "FAVOR" else -1.0
    weights = []
    for position in range(len(SPECTRUM)):
        left = (2 - position) / 2  # +1 far left … -1 far right
        weights.append(2.7 ** (1.3 * sign * lean * left))
    return weights


def read_arguments(rng: random.Random) -> list[Argument]:
    arguments = []
    for index, issue in enumerate(ISSUES):
        for language in LANGUAGES:
            for stance, text, hints in arguments_of(issue, language):
                argument = Argument(index, language, stance, text, hints)
                argument.spectrum = pick(rng, SPECTRUM, spectrum_weights(issue["lean"], stance))
                arguments.append(argument)
    return arguments


def compatible(hints: dict[str, str], others: list[Argument]) -> bool:
    return all(other.hints.get(key, value) == value for other in others for key, value in hints.items())


def group_authors(rng: random.Random, arguments: list[Argument]) -> list[list[Argument]]:
    """Politicians: each writes in one language, at most one argument per issue, all from one spectrum position."""
    authors = []
    for language in LANGUAGES:
        for spectrum in SPECTRUM:
            pool = [a for a in arguments if a.language == language and a.spectrum == spectrum]
            rng.shuffle(pool)
            while pool:
                size = pick(rng, (1, 2, 3, 4), (3, 3, 2.5, 1.5))
                author = [pool.pop(0)]
                position = 0
                while len(author) < size and position < len(pool):
                    candidate = pool[position]
                    if candidate.issue not in {a.issue for a in author} and compatible(candidate.hints, author):
                        author.append(pool.pop(position))
                    else:
                        position += 1
                authors.append(sorted(author, key=lambda a: a.issue))
    rng.shuffle(authors)
    return authors


def draw_profile(rng: random.Random, language: str, spectrum: str, hints: dict[str, str]) -> dict:
    left = 2 - SPECTRUM.index(spectrum)  # 2 far left … -2 far right
    gender = hints.get("gender") or pick(rng, GENDERS, (1.35 - 0.15 * left, 1.0 + 0.15 * left))
    age = hints.get("age") or pick(rng, AGES, (0.9 + 0.1 * left, 1.0, 1.0, 0.5))
    residence = hints.get("residence") or pick(rng, RESIDENCES, (1.0 + 0.3 * left, 1.0, 1.0 - 0.3 * left))
    civil_weights = {
        "18-34": (7, 2.5, 0.5, 0),
        "35-49": (3, 5.5, 1.5, 0),
        "50-64": (1.5, 6, 2, 0.5),
        "65+": (1, 5.5, 1.5, 2),
    }[age]
    civil_status = pick(rng, CIVIL_STATUSES, civil_weights)
    denomination_weights = {
        "de": [3.0, 3.5, 2.5, 0.5, 0.5],
        "fr": [4.0, 2.5, 2.5, 0.5, 0.5],
        "it": [7.0, 0.7, 1.5, 0.3, 0.5],
    }[language]
    denomination_weights[2] *= 1.0 + 0.25 * left  # the left is more often without a confession
    denomination = pick(rng, DENOMINATIONS, denomination_weights)
    education = pick(rng, EDUCATIONS, (0.4, 2.5, 1.0, 1.5, 2.0, 2.6 + 0.2 * left))
    count = pick(rng, (0, 1, 2, 3), (1, 2, 3, 3))
    issues: list[str] = []
    weights = [ISSUE_WEIGHTS[name][SPECTRUM.index(spectrum)] for name in POLITICAL_ISSUES]
    while len(issues) < count:
        name = pick(rng, POLITICAL_ISSUES, weights)
        if name not in issues:
            issues.append(name)
    return {
        "gender": gender,
        "age": age,
        "residence": residence,
        "civil_status": civil_status,
        "denomination": denomination,
        "education": education,
        "political_spectrum": spectrum,
        "important_political_issues": [name for name in POLITICAL_ISSUES if name in issues],
    }


def build_corpus(rng: random.Random) -> tuple[list[Argument], list[list[Argument]]]:
    arguments = read_arguments(rng)
    authors = group_authors(rng, arguments)
    next_id = FIRST_ARGUMENT_ID
    for author in authors:
        hints: dict[str, str] = {}
        for argument in author:
            hints.update(argument.hints)
        profile = draw_profile(rng, author[0].language, author[0].spectrum, hints)
        for argument in author:
            argument.profile = profile
            argument.argument_id = next_id
            next_id += 1
    corpus = [argument for author in authors for argument in author]
    return corpus, authors


# --------------------------------------------------------------------------------------------------
# queries


def has_property(argument: Argument, key: str, value: str) -> bool:
    field_value = argument.profile[QUERY_PROPERTIES[key]]
    return value in field_value if key == "important_political_issue" else field_value == value


def property_values(arguments: list[Argument], key: str) -> Counter:
    counts: Counter = Counter()
    for argument in arguments:
        field_value = argument.profile[QUERY_PROPERTIES[key]]
        for value in field_value if key == "important_political_issue" else [field_value]:
            counts[value] += 1
    return counts


def choose_properties(rng: random.Random, arguments: list[Argument], used: Counter) -> list[tuple[str, str]]:
    """2 or 3 properties with different keys, each held by the authors of at least 3 and at most 2/3 of the issue's
    arguments.

    Keys used less often so far are preferred, so that every key occurs across the query files.
    """
    size = pick(rng, (2, 3), (1, 1))
    keys = list(QUERY_PROPERTIES)
    rng.shuffle(keys)
    keys.sort(key=lambda key: used[key])
    chosen: list[tuple[str, str]] = []
    for key in keys:
        counts = property_values(arguments, key)
        values = sorted(value for value, count in counts.items() if 3 <= count <= 2 * len(arguments) // 3)
        if not values:
            continue
        value = pick(rng, values, [counts[v] for v in values])
        chosen.append((key, value))
        used[key] += 1
        if len(chosen) == size:
            break
    return chosen


def build_queries(rng: random.Random, corpus: list[Argument]) -> tuple[dict, dict]:
    baseline = {split: [] for split in SPLITS}
    perspective = {split: [] for split in SPLITS}
    baseline_id = FIRST_BASELINE_QUERY_ID
    perspective_id = FIRST_PERSPECTIVE_QUERY_ID
    used: Counter = Counter()
    for index, issue in enumerate(ISSUES):
        on_issue = [a for a in corpus if a.issue == index]
        relevant = sorted(a.argument_id for a in on_issue)
        for language in LANGUAGES:
            text = issue["questions"][language]
            baseline[issue["split"]].append({"query_id": baseline_id, "text": text, "relevant_candidates": relevant})
            baseline_id += 1
            for key, value in choose_properties(rng, on_issue, used):
                matching = sorted(a.argument_id for a in on_issue if has_property(a, key, value))
                perspective[issue["split"]].append(
                    {
                        "query_id": perspective_id,
                        "text": text,
                        "demographic_property": {key: value},
                        "relevant_candidates": matching,
                    }
                )
                perspective_id += 1
    for queries in (baseline["test"], perspective["test"]):
        for query in queries:
            del query["relevant_candidates"]  # unseen test issues come without judgments
    return baseline, perspective


# --------------------------------------------------------------------------------------------------
# writing and checking


def dump(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False)


def write_lines(path: Path, records: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(dump(record) + "\n" for record in records), encoding="utf-8", newline="\n")


def corpus_record(argument: Argument) -> dict:
    return {
        "argument_id": argument.argument_id,
        "argument": argument.text,
        "stance": argument.stance,
        "topic": ISSUES[argument.issue]["topic"],
        "demographic_profile": argument.profile,
    }


def check(
    out: Path, corpus: list[Argument], authors: list[list[Argument]], baseline: dict, perspective: dict
) -> list[str]:
    """Everything the README promises about the files, read back from `out`; returns the failures."""
    failures = []
    records = [json.loads(line) for line in (out / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    by_id = {record["argument_id"]: record for record in records}
    if len(by_id) != len(records):
        failures.append("argument ids repeat")
    profile_keys = list(QUERY_PROPERTIES.values())
    for record in records:
        if list(record) != ["argument_id", "argument", "stance", "topic", "demographic_profile"]:
            failures.append(f"argument {record['argument_id']}: keys {list(record)}")
        if list(record["demographic_profile"]) != profile_keys:
            failures.append(f"argument {record['argument_id']}: profile keys {list(record['demographic_profile'])}")
        if not 0 <= len(record["demographic_profile"]["important_political_issues"]) <= 3:
            failures.append(f"argument {record['argument_id']}: too many important issues")
    for name in profile_keys:
        values = {json.dumps(r["demographic_profile"][name]) for r in records}
        if name == "important_political_issues":
            values = {issue for r in records for issue in r["demographic_profile"][name]}
            if len(values) < len(POLITICAL_ISSUES):
                failures.append("not every political issue is somebody's important issue")
        if len(values) < 2:
            failures.append(f"{name} is constant over the corpus")
    texts = Counter(record["argument"] for record in records)
    repeated = sorted(text for text, count in texts.items() if count > 1)
    if repeated != sorted(DUPLICATES) or any(texts[text] != 2 for text in DUPLICATES):
        failures.append(f"duplicate texts are {repeated}, expected the {len(DUPLICATES)} deliberate pairs")
    for author in authors:
        if len({a.issue for a in author}) != len(author) or len({a.language for a in author}) != 1:
            failures.append(f"author of {[a.argument_id for a in author]} writes twice on an issue or in two languages")
        for argument in author:
            for key, value in argument.hints.items():
                if argument.profile[key] != value:
                    failures.append(f"argument {argument.argument_id}: hint {key}={value} not in its profile")
    by_issue = {index: sorted(a.argument_id for a in corpus if a.issue == index) for index in range(len(ISSUES))}
    arguments_by_id = {a.argument_id: a for a in corpus}
    seen_issues = {split: set() for split in SPLITS}
    for folder, files in (("baseline-queries", baseline), ("perspective-queries", perspective)):
        for split in SPLITS:
            path = out / folder / f"queries_{split}.jsonl"
            lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
            if lines != files[split]:
                failures.append(f"{path.name} in {folder} does not read back as written")
            for query in lines:
                index = next(i for i, issue in enumerate(ISSUES) if query["text"] in issue["questions"].values())
                seen_issues[split].add(index)
                if ISSUES[index]["split"] != split:
                    failures.append(f"query {query['query_id']} is in {split}, its issue in {ISSUES[index]['split']}")
                expected_keys = ["query_id", "text"]
                if folder == "perspective-queries":
                    expected_keys.append("demographic_property")
                if split != "test":
                    expected_keys.append("relevant_candidates")
                if list(query) != expected_keys:
                    failures.append(f"query {query['query_id']}: keys {list(query)}")
                    continue
                if folder == "baseline-queries":
                    expected = by_issue[index]
                else:
                    ((key, value),) = query["demographic_property"].items()
                    expected = sorted(i for i in by_issue[index] if has_property(arguments_by_id[i], key, value))
                    if len(expected) < 3:
                        failures.append(f"query {query['query_id']}: only {len(expected)} relevant arguments")
                if split != "test":
                    if any(i not in by_id for i in query["relevant_candidates"]):
                        failures.append(f"query {query['query_id']}: unknown relevant id")
                    if query["relevant_candidates"] != expected:
                        failures.append(f"query {query['query_id']}: relevant set differs from the issue's filter")
    if any(seen_issues[a] & seen_issues[b] for a in SPLITS for b in SPLITS if a < b):
        failures.append("an issue occurs in two splits")
    keys = {key for split in SPLITS for q in perspective[split] for key in q["demographic_property"]}
    if keys != set(QUERY_PROPERTIES):
        failures.append(f"perspective queries use only {sorted(keys)}")
    all_ids = [q["query_id"] for files in (baseline, perspective) for split in SPLITS for q in files[split]]
    if len(set(all_ids)) != len(all_ids):
        failures.append("query ids repeat")
    return failures


def report(corpus: list[Argument], authors: list[list[Argument]], perspective: dict) -> None:
    print(f"{len(corpus)} arguments by {len(authors)} authors")
    print("issue                       split  de(F/A)   fr(F/A)   it(F/A)   all")
    for index, issue in enumerate(ISSUES):
        cells = []
        for language in LANGUAGES:
            these = [a for a in corpus if a.issue == index and a.language == language]
            favor = sum(a.stance == "FAVOR" for a in these)
            cells.append(f"{len(these):2d}({favor:2d}/{len(these) - favor:2d})")
        total = sum(a.issue == index for a in corpus)
        print(f"{issue['key']:27s} {issue['split']:5s}  {'  '.join(cells)}  {total}")
    print("languages:", dict(Counter(a.language for a in corpus)))
    print("author sizes:", dict(sorted(Counter(len(author) for author in authors).items())))
    for name in QUERY_PROPERTIES.values():
        counts = Counter()
        for a in corpus:
            value = a.profile[name]
            for v in value if isinstance(value, list) else [value]:
                counts[v] += 1
        print(f"{name}: {dict(sorted(counts.items()))}")
    spectrum_by_stance = Counter((a.stance, a.profile["political_spectrum"]) for a in corpus)
    print("stance x spectrum:", {k: spectrum_by_stance[k] for k in sorted(spectrum_by_stance)})
    for split in SPLITS:
        queries = perspective[split]
        keys = Counter(next(iter(q["demographic_property"])) for q in queries)
        print(f"perspective {split}: {len(queries)} queries, keys {dict(sorted(keys.items()))}")
        for q in queries:
            relevant = q.get("relevant_candidates")
            size = len(relevant) if relevant is not None else "-"
            print(f"  {q['query_id']}: {q['demographic_property']} relevant {size}")
    for text in DUPLICATES:
        ids = [a.argument_id for a in corpus if a.text == text]
        print(f"duplicate {ids}: {text}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DATA, help=f"folder to write into (default {DATA})")
    out = parser.parse_args(argv).out
    rng = random.Random(SEED)
    corpus, authors = build_corpus(rng)
    baseline, perspective = build_queries(rng, corpus)
    write_lines(out / "corpus.jsonl", [corpus_record(argument) for argument in corpus])
    for folder, files in (("baseline-queries", baseline), ("perspective-queries", perspective)):
        for split in SPLITS:
            write_lines(out / folder / f"queries_{split}.jsonl", files[split])
    report(corpus, authors, perspective)
    failures = check(out, corpus, authors, baseline, perspective)
    for failure in failures:
        print("CHECK FAILED:", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
