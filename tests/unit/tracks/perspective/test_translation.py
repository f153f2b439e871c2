"""Query translation: dictionaries read both ways and through French, a question's translations into the languages
listed before its own (stop words left alone, each word's translations one structured term), and each question
ranked from its own text alone."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from argrank.index.build import build_index
from argrank.text.multilingual import make_analyzer
from argrank.tracks.perspective.cross_validation import LANGUAGES, load_release
from argrank.tracks.perspective.crosslingual import build_ranker
from argrank.tracks.perspective.data import query_file, read_queries
from argrank.tracks.perspective.ranking import PropertyEvidence, allowed_columns, rank_scenario, training_from_queries
from argrank.tracks.perspective.translation import QueryTerms, dictionary_files, read_lexicon

from ...formats.dictd_files import write_dictd

DATA = Path(__file__).resolve().parents[4] / "data" / "perspective"


@pytest.fixture
def dictionaries(tmp_path: Path) -> Path:
    folder = tmp_path / "dictd"
    write_dictd(folder, "freedict-ita-deu", {"strada": "Straße", "treno": "Bahn", "trasporto": "Verkehr",
                                             "biglietto": "Billett", "aumentare": "erhöhen"})  # fmt: skip
    write_dictd(folder, "freedict-deu-ita", {"Maut": "pedaggio", "Straße": "via"})
    write_dictd(folder, "freedict-fra-ita", {"renouvelable": "rinnovabile", "énergie": "energia"})
    write_dictd(folder, "freedict-fra-deu", {"renouvelable": "erneuerbar", "énergie": "Energie"})
    write_dictd(folder, "freedict-eng-deu", {"road": "Straße"})  # not a pair of the corpus's languages
    return folder


def test_pairs_are_read_both_ways_and_through_french(dictionaries):
    assert [path.name for path in dictionary_files(dictionaries, LANGUAGES)] == [
        "freedict-deu-ita.index", "freedict-fra-deu.index", "freedict-fra-ita.index", "freedict-ita-deu.index",
    ]  # fmt: skip
    lexicon = read_lexicon(dictionaries, LANGUAGES)
    assert lexicon.translate("strada", "it", "de") == ["Straße"]  # the pair's own dictionary
    assert lexicon.translate("pedaggio", "it", "de") == ["maut"]  # German–Italian read backwards (lowercased)
    assert lexicon.translate("via", "it", "de") == ["straße"]
    assert lexicon.translate("rinnovabile", "it", "de") == ["erneuerbar"]  # Italian → French → German
    assert lexicon.translate("energia", "it", "fr") == ["énergie"]
    assert lexicon.translate("energie", "de", "fr") == ["énergie"]
    assert lexicon.translate("road", "it", "de") == []
    assert read_lexicon(dictionaries / "missing", LANGUAGES).files == ()


def test_a_question_is_translated_into_the_languages_before_its_own(dictionaries):
    analyzer = make_analyzer(",".join(LANGUAGES))
    texts = ["Die Maut auf der Straße erhöhen und die Bahn ausbauen", "Energie erneuerbar", "énergie renouvelable"]
    index = build_index(np.array(["1", "2", "3"]), analyzer.analyze_many(texts, ["de", "de", "fr"]))
    terms = QueryTerms(analyzer, index.vocabulary, read_lexicon(dictionaries, LANGUAGES), limit=5)
    vocabulary = index.vocabulary.ids
    question = terms("Bisogna aumentare il pedaggio sulla strada?")
    assert question.language == "it" and question.ids == []  # no Italian text indexed: nothing of its own
    # One structured term per translated word: aumentare → erhöhen, pedaggio → Maut, strada → Straße.
    assert sorted(question.translations) == sorted((term,) for term in vocabulary(["erhöhen", "maut", "straße"]))
    italian = terms("Lo Stato dovrebbe promuovere di più l'energia rinnovabile?")
    assert {term for word in italian.translations for term in word} >= set(vocabulary(["energie", "erneuerbar"]))
    german = terms("Maut auf der Straße")
    assert (german.ids, german.weights, german.translations) == (sorted(vocabulary(["maut", "straße"])), [1.0, 1.0], [])
    assert QueryTerms(analyzer, index.vocabulary, read_lexicon(dictionaries, LANGUAGES), limit=0)(
        "Bisogna aumentare il pedaggio sulla strada?"
    ).translations == []  # fmt: skip


def test_stop_words_are_not_translated_and_a_words_translations_are_one_term(tmp_path):
    folder = tmp_path / "dictd"
    # "della" is an Italian stop word with entries ("von 2.": its "2." matched pension questions' "2. Säule");
    # "tassare" has two German senses, which together are one structured term.
    write_dictd(folder, "freedict-ita-deu", {"della": "von 2.", "tassare": "besteuern; anlegen", "coniugi": "Ehepaar"})
    analyzer = make_analyzer(",".join(LANGUAGES))
    texts = ["Ehepaar besteuern", "2. Säule anlegen", "Steuer"]
    index = build_index(np.array(["1", "2", "3"]), analyzer.analyze_many(texts, ["de", "de", "de"]))
    vocabulary = index.vocabulary.ids
    question = QueryTerms(analyzer, index.vocabulary, read_lexicon(folder, LANGUAGES), limit=5)(
        "Le tasse della coppia: tassare i coniugi?"
    )  # fmt: skip
    assert question.language == "it"
    translated = {term for word in question.translations for term in word}
    assert not translated & set(vocabulary(["2."]))  # "della" left alone
    assert tuple(vocabulary(["ehepaar"])) in question.translations
    assert tuple(sorted(vocabulary(["besteuern", "anlegen"]))) in question.translations  # one word, one term


def test_each_question_is_ranked_from_its_own_text(dictionaries):
    release = load_release(DATA, dictionaries)
    training = training_from_queries(
        read_queries(query_file(DATA, "baseline", "train")), read_queries(query_file(DATA, "explicit", "train")),
        release.position,
    )  # fmt: skip
    documents = release.documents
    languages, topics = (documents.column(name).to_pylist() for name in ("language", "topic"))

    def ranked(queries, lexicon):
        ranker = build_ranker(release.index, languages, topics, training.issues, {}, release.analyzer, lexicon,
                              training.questions)  # fmt: skip
        evidence = PropertyEvidence("baseline", documents.select(allowed_columns("baseline")), training)
        return rank_scenario(queries, ranker.score_text, evidence, release.index.doc_ids, 1000)

    queries = read_queries(query_file(DATA, "baseline", "dev"))
    italian = [query for query in queries if release.analyzer.detector.detect(query.text) == "it"]
    assert len(italian) == 2
    everything, alone = ranked(queries, release.lexicon), ranked(italian, release.lexicon)
    assert alone == {query.query_id: everything[query.query_id] for query in italian}
    untranslated = ranked(italian, None)
    assert untranslated != alone  # the dictionaries took part


def test_the_lexicon_is_read_once_while_its_files_stay_as_they_are(dictionaries):
    """Each ranking task asks for it: read once per process, read again once a dictionary file changes."""
    first = read_lexicon(dictionaries, LANGUAGES)
    assert read_lexicon(dictionaries, LANGUAGES) is first
    write_dictd(dictionaries, "freedict-deu-ita", {"Maut": "pedaggio", "Straße": "strada"})
    changed = read_lexicon(dictionaries, LANGUAGES)
    assert changed is not first
    assert "via" in first.translate("straße", "de", "it") and "via" not in changed.translate("straße", "de", "it")
