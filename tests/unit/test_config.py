"""The runs file: defaults, paths relative to the file, and one clear error per mistake."""

from __future__ import annotations

import hashlib

import json
from pathlib import Path

import pytest

from argrank.config import load_config, load_experiment
from argrank.core.errors import InputError

REPO = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str, name: str = "runs.yaml") -> Path:
    """The runs file `text`, beside the args.me file its `corpus: c` names (the corpus is checked when it is read)."""
    (tmp_path / "c").write_text('{"arguments": []}', encoding="utf-8")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_repository_runs_file_loads():
    track = load_config(REPO / "runs.yaml")["args"]
    assert track.corpus == REPO / "data" / "args" / "corpus"
    assert 1 <= len(track.runs) <= 5
    assert {spec.method for spec in track.runs} == {"bm25", "dirichlet"}


def test_defaults_and_relative_paths(tmp_path):
    track = load_config(write(tmp_path, "args:\n  corpus: c\n  topics: t.xml\n  runs:\n    r1: {}\n"))["args"]
    assert track.corpus == tmp_path / "c" and track.topics == tmp_path / "t.xml"
    assert track.depth == 1000 and track.qrels == {}
    (spec,) = track.runs
    assert (spec.tag, spec.method, spec.query) == ("r1", "bm25", "title")
    assert spec.params == {"k1": 1.2, "b": 0.75, "epsilon": 0.25}


COMPARATIVE = "comparative:\n  passages: p.jsonl.gz\n  topics: t.xml\n"


def test_shards_default_to_one_and_every_ranking_track_takes_them(tmp_path):
    assert load_config(write(tmp_path, COMPARATIVE + "  runs: {r: {}}\n"))["comparative"].shards == 1
    assert load_config(write(tmp_path, COMPARATIVE + "  shards: 8\n  runs: {r: {}}\n"))["comparative"].shards == 8
    text = "images:\n  collection: c\n  topics: t.xml\n  shards: 3\n  runs: {r: {}}\n"
    assert load_config(write(tmp_path, text))["images"].shards == 3
    assert load_config(REPO / "runs.yaml")["args"].shards == 1


def test_repository_comparative_track_loads():
    track = load_config(REPO / "runs.yaml")["comparative"]
    assert track.corpus.is_file() and track.stance_qrels.is_file()
    assert len(track.stance_training) == 1 and track.stance_training[0].is_file()
    assert set(track.qrels) == {"relevance", "quality"}
    assert any(spec.stance for spec in track.runs) and {spec.query for spec in track.runs} >= {"title+objects"}


def test_comparative_defaults_and_stance_settings(tmp_path):
    text = COMPARATIVE + (
        "  stance_training: train.tsv\n  stance_qrels: s.qrels\n  fields: [contents, doc2query]\n"
        "  stance_model: {c: 2}\n  runs:\n    r1: {query: title+objects, stance: true}\n    r2: {}\n"
    )
    track = load_config(write(tmp_path, text))["comparative"]
    assert track.name == "comparative" and track.corpus == tmp_path / "p.jsonl.gz"
    assert track.stance_training == (tmp_path / "train.tsv",) and track.stance_qrels == tmp_path / "s.qrels"
    assert track.fields == ("contents", "doc2query") and track.stance_model == {"c": 2.0, "folds": 5}
    assert [(spec.query, spec.stance) for spec in track.runs] == [("title+objects", True), ("title", False)]
    assert load_config(write(tmp_path, COMPARATIVE + "  runs: {r: {}}\n"))["comparative"].fields == ("contents",)


def test_comparative_stance_training_may_list_several_files_and_images_take_one(tmp_path):
    text = COMPARATIVE + "  stance_training: [a.tsv, sub/b.csv]\n  runs: {r: {stance: true}}\n"
    assert load_config(write(tmp_path, text))["comparative"].stance_training == (tmp_path / "a.tsv", tmp_path / "sub/b.csv")
    images = "images:\n  collection: c\n  topics: t.xml\n  stance_training: [a.txt, b.txt]\n  runs: {r: {}}\n"
    for body, where, message in (
        (images, "images.stance_training", "expected a path"),
        (COMPARATIVE + "  stance_training: []\n  runs: {r: {}}\n", "comparative.stance_training", "list of paths"),
        (COMPARATIVE + "  stance_training: [a.tsv, 3]\n  runs: {r: {}}\n", "comparative.stance_training[1]", "path"),
        (COMPARATIVE + "  stance_training: [a.tsv, ./a.tsv]\n  runs: {r: {}}\n", "comparative.stance_training", "twice"),
    ):
        with pytest.raises(InputError) as error:
            load_config(write(tmp_path, body))
        assert where in str(error.value) and message in str(error.value)


def test_a_runs_file_is_an_experiment_named_by_its_key_or_its_stem(tmp_path):
    body = "args:\n  corpus: c\n  topics: t\n  runs: {r: {}}\n"
    plain = load_experiment(write(tmp_path, body))
    assert (plain.name, plain.submission, list(plain.tracks)) == ("runs", False, ["args"])
    named = load_experiment(write(tmp_path, "experiment: sweep-k1\nsubmission: true\n" + body))
    assert (named.name, named.submission) == ("sweep-k1", True)
    assert load_experiment(REPO / "runs.yaml").submission


def test_a_grid_expands_to_one_readably_tagged_run_per_combination_without_the_five_run_limit(tmp_path):
    text = "args:\n  corpus: c\n  topics: t\n  runs:\n    bm25: {params: {k1: [0.6, 0.9, 1.2], b: [0.5, 0.75]}}\n"
    runs = load_config(write(tmp_path, text))["args"].runs
    assert [spec.tag for spec in runs] == [
        "bm25-k1_0.6-b_0.5", "bm25-k1_0.6-b_0.75", "bm25-k1_0.9-b_0.5", "bm25-k1_0.9-b_0.75",
        "bm25-k1_1.2-b_0.5", "bm25-k1_1.2-b_0.75",
    ]  # fmt: skip
    assert runs[3].params == {"k1": 0.9, "b": 0.75, "epsilon": 0.25}


def test_grids_past_a_thousand_runs_an_entry_are_refused_when_the_runs_file_is_read(tmp_path):
    values = "[" + ", ".join(str(i / 100) for i in range(1000)) + "]"
    text = f"args:\n  corpus: c\n  topics: t\n  runs:\n    bm25: {{params: {{k1: {values}, b: {values}}}}}\n"
    with pytest.raises(InputError, match=r"args.runs.bm25: the grid makes 1,000,000 runs .*; at most 1,000 per entry"):
        load_config(write(tmp_path, text))
    # Grids that multiply: 40 values of k1 × 30 quality weights.
    weights = "[" + ", ".join(str(i / 30) for i in range(30)) + "]"
    text = ("args:\n  corpus: c\n  topics: t\n  quality_training: c\n  runs:\n    bm25: {params: {k1: "
            f"[{', '.join(str(i / 10) for i in range(1, 41))}]}}, quality: {{weight: {weights}}}}}\n")  # fmt: skip
    with pytest.raises(InputError, match="args.runs.bm25: its grids make more than 1,000 runs"):
        load_config(write(tmp_path, text))


def test_the_baseline_is_a_configured_run_by_its_expanded_tag_else_the_first(tmp_path):
    grid = "args:\n  corpus: c\n  topics: t\n  runs:\n    bm25: {params: {k1: [0.6, 1.2]}}\n"
    assert load_config(write(tmp_path, grid))["args"].baseline_tag == "bm25-k1_0.6"
    chosen = load_config(write(tmp_path, grid + "  baseline: bm25-k1_1.2\n"))["args"]
    assert chosen.baseline == chosen.baseline_tag == "bm25-k1_1.2"
    with pytest.raises(InputError, match=r"args.baseline: no run tagged 'bm25' \(runs: bm25-k1_0.6, bm25-k1_1.2\)"):
        load_config(write(tmp_path, grid + "  baseline: bm25\n"))


def test_ranking_tracks_name_their_measures_as_ir_measures_does(tmp_path):
    text = COMPARATIVE + "  measures: [nDCG@10, judged@5, nDCG@10, 'nDCG(judged_only=True)@5']\n  runs: {r: {}}\n"
    track = load_config(write(tmp_path, text))["comparative"]
    assert track.measures == ("nDCG@10", "Judged@5", "nDCG(judged_only=True)@5")  # aliases resolved, once each
    text = COMPARATIVE + "  measures: [P_10, P@10, map, ndcg@5, ndcg_cut.5]\n  runs: {r: {}}\n"
    assert load_config(write(tmp_path, text))["comparative"].measures == ("P@10", "AP", "nDCG@5")  # trec_eval's too
    assert load_config(REPO / "runs.yaml")["args"].measures == ()


@pytest.mark.parametrize(
    "text, where, problem",
    [
        ("args: [1, 2]\n", "args", "expected a mapping"),
        ("videos: {}\n", "videos", "unknown track"),
        ("args:\n  topics: t\n  runs: {r: {}}\n", "args", "missing setting 'corpus'"),
        ("args:\n  corpus: c\n  topics: t\n  runs: {r: {method: tfidf}}\n", "args.runs.r", "unknown ranking method"),
        ("args:\n  corpus: c\n  topics: t\n  runs: {r: {params: {k1: x}}}\n", "args.runs.r", "finite number"),
        ("args:\n  corpus: c\n  topics: t\n  runs: {'a b': {}}\n", "args.runs.a b", "no spaces"),
        ("args:\n  corpus: c\n  topics: t\n  runs: {r: {query: body}}\n", "args.runs.r.query", "unknown query"),
        ("args:\n  corpus: c\n  topics: t\n  depth: 5000\n  runs: {r: {}}\n", "args.depth", "1 to 1000"),
        (
            "submission: true\nargs:\n  corpus: c\n  topics: t\n  runs: {a: {}, b: {}, c: {}, d: {}, e: {}, f: {}}\n",
            "args.runs",
            "at most 5",
        ),
        ("args:\n  corpus: c\n  topics: t\n  runs: {r: {}}\n  colour: red\n", "args", "unknown setting(s) colour"),
        ("args: {corpus: [\n", "line 2", "not valid YAML"),
        ("experiment: ../elsewhere\nargs:\n  corpus: c\n  topics: t\n  runs: {r: {}}\n", "experiment", "a name is"),
        ("args:\n  corpus: c\n  topics: t\n  fields: [body]\n  runs: {r: {}}\n", "args.fields", "conclusion, premise"),
        ("args:\n  corpus: c\n  topics: t\n  runs: {r: {stance: true}}\n", "args.runs.r", "unknown setting(s) stance"),
        (
            "args:\n  corpus: c\n  topics: t\n  runs: {r: {query: title+objects}}\n",
            "args.runs.r.query",
            "unknown query",
        ),
        ("comparative:\n  corpus: c\n  topics: t\n  runs: {r: {}}\n", "comparative", "unknown setting(s) corpus"),
        (
            f"{COMPARATIVE}  runs: {{r: {{stance: true}}}}\n",
            "comparative.stance_training",
            "need a stance training set",
        ),
        (f"{COMPARATIVE}  runs: {{r: {{stance: yes please}}}}\n", "comparative.runs.r.stance", "true or false"),
        (
            f"{COMPARATIVE}  qrels: {{stance: s.qrels}}\n  runs: {{r: {{}}}}\n",
            "comparative.qrels.stance",
            "stance_qrels",
        ),
        (f"{COMPARATIVE}  fields: []\n  runs: {{r: {{}}}}\n", "comparative.fields", "expected a list"),
        (
            f"{COMPARATIVE}  stance_model: {{c: 0}}\n  runs: {{r: {{}}}}\n",
            "comparative.stance_model.c",
            "positive number",
        ),
        (
            f"{COMPARATIVE}  stance_model: {{folds: 1}}\n  runs: {{r: {{}}}}\n",
            "comparative.stance_model.folds",
            "at least 2",
        ),
        (
            f"{COMPARATIVE}  stance_model: {{depth: 3}}\n  runs: {{r: {{}}}}\n",
            "comparative.stance_model",
            "unknown setting(s) depth",
        ),
        ("args:\n  corpus: c\n  topics: t\n  shards: 0\n  runs: {r: {}}\n", "args.shards", "integer from 1 to 64"),
        ("args:\n  corpus: c\n  topics: t\n  shards: -1\n  runs: {r: {}}\n", "args.shards", "integer from 1 to 64"),
        ("args:\n  corpus: c\n  topics: t\n  shards: two\n  runs: {r: {}}\n", "args.shards", "integer from 1 to 64"),
        ("args:\n  corpus: c\n  topics: t\n  shards: 2.5\n  runs: {r: {}}\n", "args.shards", "integer from 1 to 64"),
        (f"{COMPARATIVE}  shards: true\n  runs: {{r: {{}}}}\n", "comparative.shards", "integer from 1 to 64"),
        (f"{COMPARATIVE}  measures: nDCG@10\n  runs: {{r: {{}}}}\n", "comparative.measures", "expected a list"),
        (
            "args:\n  corpus: c\n  topics: t\n  measures: [nDGC@10]\n  runs: {r: {}}\n",
            "args.measures",
            "unknown measure 'nDGC@10'; closest: nDCG@10,",
        ),
        ("images:\n  collection: c\n  topics: t\n  measures: [P@10]\n  runs: {r: {}}\n", "images", "unknown setting"),
    ],
)
def test_mistakes_are_named(tmp_path, text, where, problem):
    path = write(tmp_path, text)
    with pytest.raises(InputError) as error:
        load_config(path)
    assert error.value.path == str(path)
    assert error.value.where == where
    assert problem in error.value.problem


ARGS = "args:\n  corpus: c\n  topics: t\n"
PERSPECTIVE = "perspective:\n  data: release\n"


@pytest.mark.parametrize(
    "text, where, problem",
    [
        (ARGS + "  runs: {r: {params: {k1: -1.2}}}\n", "args.runs.r", "k1 of bm25 must be a number of at least 0"),
        (ARGS + "  runs: {r: {params: {b: 2.5}}}\n", "args.runs.r", "b of bm25 must be a number from 0 to 1"),
        (ARGS + "  runs: {r: {params: {epsilon: -0.1}}}\n", "args.runs.r", "epsilon of bm25 must be a number of"),
        (ARGS + "  runs: {r: {params: {b: [0.5, 1.5]}}}\n", "args.runs.r", "b of bm25 must be a number from 0 to 1"),
        (
            ARGS + "  runs: {r: {method: dirichlet, params: {mu: 0}}}\n",
            "args.runs.r",
            "mu of dirichlet must be a number greater than 0",
        ),
        (ARGS + "  runs: {r: {method: dirichlet, params: {mu: -5}}}\n", "args.runs.r", "greater than 0, got -5"),
        (ARGS + "  language: xx\n  runs: {r: {}}\n", "args.language", "unsupported 'xx'"),
        (ARGS + "  language: en,pl\n  runs: {r: {}}\n", "args.language", "unsupported 'pl'"),
        (ARGS + "  language: [en]\n  runs: {r: {}}\n", "args.language", "expected a language code"),
        (PERSPECTIVE + "  language: de,xx,it\n", "perspective.language", "unsupported 'xx'"),
        (PERSPECTIVE + "  language: de,fr,de\n", "perspective.language", "expected a language code"),
        (
            PERSPECTIVE + "  params: {b: 1.5}\n",
            "perspective.params",
            "b of the perspective ranker must be a number from 0 to 1",
        ),
        (PERSPECTIVE + "  params: {k1: -1}\n", "perspective.params", "k1 of the perspective ranker must be"),
        (PERSPECTIVE + "  params: {feedback: 2.5}\n", "perspective.params", "must be an integer of at least 0"),
        (PERSPECTIVE + "  params: {concept_weight: -1}\n", "perspective.params", "concept_weight of the perspective"),
        (PERSPECTIVE + "  params: {category_weight: -1}\n", "perspective.params", "category_weight of the"),
        (PERSPECTIVE + "  params: {feedback: 10, feedback: 0}\n", "line 3", "duplicate key 'feedback'"),
        (PERSPECTIVE + "  params: {translation: -1}\n", "perspective.params", "translation of the perspective ranker"),
        (PERSPECTIVE + "  params: {translations: 2.5}\n", "perspective.params", "must be an integer of at least 0"),
        (PERSPECTIVE + "  dictionaries: 3\n", "perspective.dictionaries", "a folder of FreeDict dictionaries"),
        (ARGS + "  runs:\n    r: {params: {k1: 1, k1: 2}}\n", "line 5", "duplicate key 'k1'"),
        (ARGS + "  runs: {r: {}}\nargs:\n  corpus: d\n", "line 5", "duplicate key 'args'"),
        (ARGS + "  shards: 65\n  runs: {r: {}}\n", "args.shards", "integer from 1 to 64"),
        (ARGS + "  runs: {evaluation: {}}\n", "args.runs.evaluation", "reserved"),
        (ARGS + "  runs: {Manifest: {}}\n", "args.runs.Manifest", "reserved"),
        (ARGS + "  runs: {report: {}}\n", "args.runs.report", "reserved"),
        (ARGS + "  runs: {.hidden: {}}\n", "args.runs..hidden", "not starting with '.'"),
        (ARGS + "  runs: {a..b: {}}\n", "args.runs.a..b", "without '..'"),
        (ARGS + "  runs: {r: {params: {k1: [1.0e+20]}}}\n", "args.runs.r", "got 'r-k1_1e+20'"),  # after expansion
        (ARGS + "  qrels: {'../../../../ESCAPED': q}\n  runs: {r: {}}\n", "args.qrels.../../../../ESCAPED", "a name"),
        (ARGS + "  qrels: {a/b: q}\n  runs: {r: {}}\n", "args.qrels.a/b", "a name is at most 100 letters"),
        (ARGS + "  qrels: {evaluation: q}\n  runs: {r: {}}\n", "args.qrels.evaluation", "reserved"),
        ("experiment: report\n" + ARGS + "  runs: {r: {}}\n", "experiment", "reserved"),
        (ARGS + f"  runs: {{{'t' * 101}: {{}}}}\n", f"args.runs.{'t' * 101}", "got 101 characters"),
        (ARGS + f"  qrels: {{{'q' * 101}: q}}\n  runs: {{r: {{}}}}\n", f"args.qrels.{'q' * 101}", "at most 100"),
        (f"experiment: {'e' * 101}\n" + ARGS + "  runs: {r: {}}\n", "experiment", "got 101 characters"),
    ],
)
def test_out_of_range_parameters_duplicate_keys_and_unsafe_names_are_named(tmp_path, text, where, problem):
    path = write(tmp_path, text)
    with pytest.raises(InputError) as error:
        load_config(path)
    assert (error.value.path, error.value.where) == (str(path), where)
    assert problem in error.value.problem and "\n" not in str(error.value)


LAUGHS = "".join(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]\n" for i in range(1, 10))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("l0: &l0 lol\n" + LAUGHS + ARGS + "  runs: {r: {params: {k1: *l9}}}\n", "expand to more than 100,000 values"),
        ("a: &a [*a]\n" + ARGS, "an alias refers to a value that holds it"),
        (ARGS + "  runs: " + "[" * 5000 + "]" * 5000 + "\n", "nested deeper than the reader goes"),
    ],
)
def test_a_runs_file_that_expands_without_bound_is_refused_in_one_line(tmp_path, text, problem):
    with pytest.raises(InputError) as error:
        load_experiment(write(tmp_path, text))
    assert problem in error.value.problem and "\n" not in str(error.value)


def test_aliases_that_share_settings_are_read(tmp_path):
    text = ARGS + "  runs:\n    a: &run {params: {k1: 0.9, b: 0.4}}\n    b: *run\n    c: {<<: *run, method: bm25}\n"
    runs = load_experiment(write(tmp_path, text)).tracks["args"].runs
    assert [(spec.tag, spec.params) for spec in runs] == [(tag, {"k1": 0.9, "b": 0.4, "epsilon": 0.25}) for tag in "abc"]


def test_names_of_the_longest_length_are_taken(tmp_path):
    path = write(tmp_path, f"experiment: {'e' * 100}\n" + ARGS + f"  runs: {{{'t' * 100}: {{}}}}\n")
    assert load_experiment(path).name == "e" * 100


@pytest.mark.parametrize("key", ["\x1b[31mred", "a\nargrank: all fine", "\u202eevil"])
def test_a_refused_name_is_printed_with_its_control_characters_escaped(tmp_path, key):
    path = write(tmp_path, json.dumps({"experiment": key, "args": {"corpus": "c", "topics": "t", "runs": {"r": {}}}}))
    with pytest.raises(InputError) as error:
        load_experiment(path)
    assert error.value.where == "experiment" and key.encode("unicode_escape").decode() in str(error.value)
    assert not any(c in str(error.value) for c in "\x1b\n\u202e")
    path.write_text(json.dumps({key: {}}), encoding="utf-8")  # an unknown track: the key is the message's place
    with pytest.raises(InputError) as error:
        load_experiment(path)
    assert error.value.where == key and not any(c in str(error.value) for c in "\x1b\n\u202e")


def test_a_file_stem_that_cannot_name_the_experiment_asks_for_an_experiment_key(tmp_path):
    path = write(tmp_path, ARGS + "  runs: {r: {}}\n", "evaluation.yaml")
    with pytest.raises(InputError, match="name it with `experiment:`"):
        load_experiment(path)
    path.write_text("experiment: k1-sweep\n" + ARGS + "  runs: {r: {}}\n", encoding="utf-8")
    assert load_experiment(path).name == "k1-sweep"


def test_ranges_include_their_bounds_and_languages_may_be_mixed(tmp_path):
    text = ARGS + "  language: de, fr\n  shards: 64\n  runs:\n    r: {params: {k1: 0, b: [0, 1], epsilon: 0}}\n"
    track = load_config(write(tmp_path, text))["args"]
    assert [spec.params["b"] for spec in track.runs] == [0.0, 1.0] and track.shards == 64
    text = PERSPECTIVE + "  params: {feedback: 0, b: 1, category_weight: 0}\n  diversify: 1\n"
    assert load_config(write(tmp_path, text))["perspective"].params == {"feedback": 0, "b": 1, "category_weight": 0}
    assert load_config(write(tmp_path, PERSPECTIVE))["perspective"].dictionaries == "/usr/share/dictd"
    elsewhere = load_config(write(tmp_path, PERSPECTIVE + "  dictionaries: dictd\n"))["perspective"]
    assert elsewhere.dictionaries == str((tmp_path / "dictd").resolve())  # relative to the runs file
    merged = ARGS + "  runs:\n    base: &base {params: {k1: 0.9}}\n    other: {<<: *base, query: title}\n"
    assert len(load_config(write(tmp_path, merged))["args"].runs) == 2  # a merge key is no duplicate


def test_two_runs_whose_published_files_would_share_a_name_are_refused(tmp_path):
    text = "args:\n  corpus: c\n  topics: t\n  qrels: {c: q1, b.c: q2}\n  runs: {a.b: {}, a: {}}\n"
    with pytest.raises(InputError, match=r"would both be published as a\.b\.c\.per-topic\.csv") as error:
        load_config(write(tmp_path, text))
    assert error.value.where == "args"


ARGS = "args:\n  corpus: c\n  topics: t.xml\n"


def test_quality_runs_true_a_mapping_or_a_grid(tmp_path):
    text = ARGS + (
        "  quality_training: q.csv\n  runs:\n    plain: {}\n    reranked: {quality: true}\n"
        "    sweep: {quality: {weight: [0.3, 0.7], depth: 50}}\n"
    )
    track = load_config(write(tmp_path, text))["args"]
    assert track.quality_training == tmp_path / "q.csv"
    specs = {spec.tag: spec.quality for spec in track.runs}
    defaults = {"weight": 0.5, "depth": 100.0, "nonargument_penalty": 0.0, "min_words": 0.0}
    assert specs == {
        "plain": {},
        "reranked": defaults,
        "sweep-weight_0.3": {**defaults, "weight": 0.3, "depth": 50.0},
        "sweep-weight_0.7": {**defaults, "weight": 0.7, "depth": 50.0},
    }
    comparative = COMPARATIVE + "  quality_training: q.csv\n  runs: {r: {quality: {min_words: 10}}}\n"
    assert load_config(write(tmp_path, comparative))["comparative"].runs[0].quality["min_words"] == 10


@pytest.mark.parametrize(
    "text, where, problem",
    [
        (ARGS + "  runs: {r: {quality: true}}\n", "args.quality_training", "runs with quality need a quality training"),
        (ARGS + "  quality_training: q.csv\n  runs: {r: {quality: {weight: 2}}}\n", "args.runs.r",
         "parameter weight of the quality re-ranking must be a number from 0 to 1"),
        (ARGS + "  quality_training: q.csv\n  runs: {r: {quality: {depth: 0.5}}}\n", "args.runs.r",
         "parameter depth of the quality re-ranking must be an integer of at least 1"),
        (ARGS + "  quality_training: q.csv\n  runs: {r: {quality: {alpha: 1}}}\n", "args.runs.r",
         "unknown parameter.s. alpha for the quality re-ranking"),
        (ARGS + "  quality_training: q.csv\n  runs: {r: {quality: 0.5}}\n", "args.runs.r.quality",
         "expected true, false or a mapping"),
        ("images:\n  collection: c\n  topics: t.xml\n  runs: {r: {quality: true}}\n", "images.runs.r",
         "unknown setting.s. quality"),
        ("images:\n  collection: c\n  topics: t.xml\n  quality_training: q.csv\n  runs: {r: {}}\n", "images",
         "unknown setting.s. quality_training"),
    ],
)  # fmt: skip
def test_quality_mistakes_are_named(tmp_path, text, where, problem):
    with pytest.raises(InputError, match=f"{where}: {problem}"):
        load_config(write(tmp_path, text))


PLUG = "def by_length(candidates, weight=1.0):\n    return [weight] * candidates.num_rows\n"


def test_rerank_steps_are_found_beside_the_runs_file_and_their_lists_sweep(tmp_path):
    (tmp_path / "plug.py").write_text(PLUG, encoding="utf-8")
    text = ARGS + "  runs:\n    r: {rerank: [{use: 'plug:by_length', depth: 10, params: {weight: [1, -1]}}]}\n"
    runs = load_config(write(tmp_path, text))["args"].runs
    assert [spec.tag for spec in runs] == ["r-weight_1", "r-weight_-1"]
    (step,) = runs[0].rerank
    assert (step.use, step.depth, dict(step.params), step.source) == ("plug:by_length", 10, {"weight": 1},
                                                                      str(tmp_path / "plug.py"))  # fmt: skip
    assert step.version.startswith("sha256:") and runs[0].swept == (("weight", 1),)
    (default,) = load_config(write(tmp_path, ARGS + "  runs: {r: {rerank: [{use: 'plug:by_length'}]}}\n"))["args"].runs
    assert default.rerank[0].depth == 100 and dict(default.rerank[0].params) == {}


@pytest.mark.parametrize(
    "run, where, problem",
    [
        ("{rerank: {use: 'plug:by_length'}}", "args.runs.r.rerank", "expected a list of steps"),
        ("{rerank: [{depth: 3}]}", "args.runs.r.rerank.1.", "expected a mapping .* with a `use` name"),
        ("{rerank: [{use: 'plug:by_length', top: 3}]}", "args.runs.r.rerank.1.", "unknown setting.s. top"),
        ("{rerank: [{use: 'plug:by_length', depth: 0}]}", "args.runs.r.rerank.1..depth", "expected a whole number of at least 1, got 0"),
        ("{rerank: [{use: 'plug:nothing'}]}", "args.runs.r.rerank.1..use", "'plug' has no callable 'nothing'"),
        ("{rerank: [{use: 'plug:by_length', params: {k1: 2}}]}", "args.runs.r", "the re-ranker plug:by_length takes no parameter k1"),
    ],
)  # fmt: skip
def test_rerank_mistakes_are_named(tmp_path, run, where, problem):
    (tmp_path / "plug.py").write_text(PLUG, encoding="utf-8")
    with pytest.raises(InputError, match=f"{where}: {problem}"):
        load_config(write(tmp_path, ARGS + f"  runs:\n    r: {run}\n"))
    images = "images:\n  collection: c\n  topics: t.xml\n  runs: {r: {rerank: [{use: 'plug:by_length'}]}}\n"
    with pytest.raises(InputError, match="images.runs.r: unknown setting.s. rerank"):
        load_config(write(tmp_path, images))


def test_an_expansion_takes_its_defaults_and_sweeps_its_lists(tmp_path):
    text = ARGS + "  runs:\n    r: {expand: [{use: rm3, params: {fb_terms: [5, 10]}}]}\n    b: {expand: [{use: bo1}]}\n"
    runs = load_config(write(tmp_path, text))["args"].runs
    assert [spec.tag for spec in runs] == ["r-fb_terms_5", "r-fb_terms_10", "b"]
    assert runs[0].expand == ({"use": "rm3", "params": {"fb_docs": 3, "fb_terms": 5.0, "fb_lambda": 0.6}},)
    assert runs[2].expand == ({"use": "bo1", "params": {"fb_docs": 3, "fb_terms": 10}},)


REWRITER = """\
def first(topics, weight=1.0):
    return list(topics.column("query").to_pylist())


def fed(topics, candidates):
    return list(topics.column("query").to_pylist())
"""


def test_expansion_steps_chain_and_a_rewriter_is_found_beside_the_runs_file(tmp_path):
    (tmp_path / "rw.py").write_text(REWRITER, encoding="utf-8")
    text = ARGS + ("  runs:\n    r: {expand: [{use: 'rw:fed', depth: 5}, {use: 'rw:first', params: {weight: [1, 2]}},"
                   " {use: rm3}]}\n")  # fmt: skip
    runs = load_config(write(tmp_path, text))["args"].runs
    assert [spec.tag for spec in runs] == ["r-weight_1", "r-weight_2"]
    fed, first, rm3 = runs[1].expand
    version = "sha256:" + hashlib.sha256(REWRITER.encode()).hexdigest()
    source = str((tmp_path / "rw.py").resolve())
    assert fed == {"use": "rw:fed", "depth": 5, "params": {}, "version": version, "feedback": True, "source": source}
    assert first == {"use": "rw:first", "depth": 100, "params": {"weight": 2}, "version": version, "feedback": False,
                     "source": source}  # fmt: skip
    assert rm3 == {"use": "rm3", "params": {"fb_docs": 3, "fb_terms": 10, "fb_lambda": 0.6}}


@pytest.mark.parametrize(
    "settings, where, problem",
    [
        ("  runs: {r: {expand: {use: rm3}}}\n", "args.runs.r.expand", "expected a list of steps"),
        ("  runs: {r: {expand: [{use: rm4}]}}\n", r"args.runs.r.expand\[1\].use", "unknown query rewriter 'rm4' "
         r"\(registered under argrank.rewriters: none installed; or name module:callable\)"),
        ("  runs: {r: {expand: [{use: 3}]}}\n", r"args.runs.r.expand\[1\]", "expected a mapping .*, NAME one of bo1, rm3"),
        ("  runs: {r: {expand: [{use: rm3, fb: 3}]}}\n", "args.runs.r.expand.1.", "unknown setting.s. fb"),
        ("  runs: {r: {expand: [{use: rm3, depth: 3}]}}\n", "args.runs.r.expand.1.", r"unknown setting.s. depth \(known: params, use\)"),
        ("  runs: {r: {expand: [{use: 'rw:first', depth: 0}]}}\n", r"args.runs.r.expand\[1\].depth", "expected a whole number of at least 1, got 0"),
        ("  runs: {r: {expand: [{use: 'rw:first', params: {nope: 1}}]}}\n", "args.runs.r",
         r"the query rewriter rw:first takes no parameter nope \(it takes: weight\)"),
        ("  runs: {r: {expand: [{use: 'rw:fed', params: {candidates: 1}}]}}\n", "args.runs.r",
         "the query rewriter rw:fed: candidates is passed by argrank, not a parameter"),
        ("  runs: {r: {expand: [{use: rm3, params: {fb_lambda: 2}}]}}\n", "args.runs.r",
         "parameter fb_lambda of the query expansion rm3 must be a number from 0 to 1"),
        ("  runs: {r: {expand: [{use: rm3, params: {fb_docs: 2.5}}]}}\n", "args.runs.r",
         "parameter fb_docs of the query expansion rm3 must be an integer of at least 1, got 2.5"),
        ("  shards: 2\n  runs: {r: {expand: [{use: rm3}]}}\n", "args.shards", "runs with `expand` rank one index"),
    ],
)  # fmt: skip
def test_expansion_mistakes_are_named(tmp_path, settings, where, problem):
    (tmp_path / "rw.py").write_text(REWRITER, encoding="utf-8")
    with pytest.raises(InputError, match=f"{where}: {problem}"):
        load_config(write(tmp_path, ARGS + settings))


def test_the_quality_reranking_is_a_built_in_step(tmp_path):
    text = ARGS + "  quality_training: q.csv\n  runs:\n    r: {rerank: [{use: quality, depth: 10, params: {weight: [0.2, 0.4]}}]}\n"
    runs = load_config(write(tmp_path, text))["args"].runs
    assert [spec.tag for spec in runs] == ["r-weight_0.2", "r-weight_0.4"]
    (step,) = runs[0].rerank
    assert (step.use, step.depth, step.version) == ("quality", 10, "built-in")
    assert step.params == {"weight": 0.2, "nonargument_penalty": 0.0, "min_words": 0} and runs[0].quality_step
    with pytest.raises(InputError, match="args.quality_training: runs with quality need a quality training set"):
        load_config(write(tmp_path, ARGS + "  runs:\n    r: {rerank: [{use: quality}]}\n"))
    with pytest.raises(InputError, match="parameter weight of the re-ranker quality must be a number from 0 to 1"):
        load_config(write(tmp_path, text.replace("[0.2, 0.4]", "2")))
    with pytest.raises(InputError, match="the re-ranker quality takes no parameter depth"):
        load_config(write(tmp_path, text.replace("weight: [0.2, 0.4]", "depth: 5")))



def test_the_ltr_step_needs_training_topics_and_checks_its_parameters(tmp_path):
    training = "  ltr_training: {topics: train.xml, qrels: train.qrels}\n"
    text = ARGS + training + "  runs:\n    r: {rerank: [{use: ltr, depth: 50, params: {trees: [10, 20]}}]}\n"
    section = load_config(write(tmp_path, text))["args"]
    assert section.ltr_training == ((tmp_path / "train.xml").resolve(), (tmp_path / "train.qrels").resolve())
    assert [spec.tag for spec in section.runs] == ["r-trees_10", "r-trees_20"]
    (step,) = section.runs[0].rerank
    assert (step.use, step.depth, step.version) == ("ltr", 50, "built-in")
    assert step.params == {"trees": 10, "leaves": 15, "learning_rate": 0.1, "min_leaf": 5}
    assert isinstance(step.params["trees"], int)
    with pytest.raises(InputError, match="args.ltr_training: runs with an ltr step need ltr_training"):
        load_config(write(tmp_path, text.replace(training, "")))
    with pytest.raises(InputError, match=r"args.ltr_training: expected a mapping \{topics: FILE, qrels: FILE\}"):
        load_config(write(tmp_path, text.replace(training, "  ltr_training: train.qrels\n")))
    with pytest.raises(InputError, match="parameter learning_rate of the re-ranker ltr must be a number from 0 to 1, got 0"):
        load_config(write(tmp_path, text.replace("trees: [10, 20]", "learning_rate: 0")))
