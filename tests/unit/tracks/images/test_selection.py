"""Choosing a topic's PRO and CON images: relevance, searches, stance, near-duplicates, disjoint lists."""

from __future__ import annotations

import numpy as np

from argrank.tracks.images.selection import (
    Candidates,
    candidates,
    found_strength,
    relevance,
    searches_by_topic,
    select,
    select_images,
)
from argrank.tracks.images.stance import CON, PRO


def test_each_image_goes_to_the_side_it_fits_until_that_side_is_full():
    docs = [f"I{i:02d}" for i in range(30)]
    relevance_ = np.linspace(1.0, 0.5, 30)
    pro = np.array([0.9] * 15 + [0.2] * 15)  # 15 lean PRO, 15 lean CON
    picks = select(docs, relevance_, pro, np.arange(30, dtype=np.uint64), near_duplicate_bits=0)
    by_side = {side: [doc for s, doc, _ in picks if s == side] for side in (PRO, CON)}
    assert by_side[PRO] == docs[:10] and by_side[CON] == docs[15:25]
    for side in (PRO, CON):
        scores = [score for s, _, score in picks if s == side]
        assert scores == sorted(scores, reverse=True)


def test_a_full_side_sends_the_rest_to_the_other_and_no_image_is_in_both():
    docs = [f"I{i:02d}" for i in range(25)]
    picks = select(docs, np.ones(25), np.full(25, 0.8), np.arange(25, dtype=np.uint64), near_duplicate_bits=0)
    sides = [side for side, _, _ in picks]
    assert sides.count(PRO) == 10 and sides.count(CON) == 10
    assert len({doc for _, doc, _ in picks}) == 20
    # Equal scores: ties go by document id, so the PRO list is the first ten ids.
    assert [doc for side, doc, _ in picks if side == PRO] == docs[:10]


def test_near_duplicates_are_never_both_chosen():
    docs = ["Ia", "Ib", "Ic"]
    base = 0b1111_0000
    hashes = np.array([base, base ^ 0b1, 0xFFFF_0000_0000_0000], dtype=np.uint64)  # Ia and Ib differ in 1 bit
    picks = select(docs, np.array([1.0, 0.9, 0.8]), np.array([0.9, 0.1, 0.5]), hashes, near_duplicate_bits=4)
    assert [doc for _, doc, _ in picks] == ["Ia", "Ic"]
    picks = select(docs, np.array([1.0, 0.9, 0.8]), np.array([0.9, 0.1, 0.5]), hashes, near_duplicate_bits=1)
    assert [doc for _, doc, _ in picks] == ["Ia", "Ib", "Ic"]  # 1 bit is not below 1


def test_relevance_scales_text_scores_and_adds_the_search_signal():
    topic = Candidates("7", ["Ia", "Ib", "Ic"], np.array([4.0, 2.0, 0.0]))
    scores = relevance(topic, {"Ic": 1, "Ib": 3}, found_weight=0.5)
    assert np.allclose(scores, [1.0, 0.5 + 0.5 * 0.5, 0.5])
    assert found_strength(1) == 1.0 and found_strength(0) == 1.0 and found_strength(3) == 0.5


def test_candidates_add_images_only_a_search_found_and_keep_topic_order():
    ranking = [("2", "Ib", 3.0), ("2", "Ia", 1.0), ("1", "Ic", 5.0)]
    pool = candidates(ranking, {"2": {"Iz": 4, "Ia": 9}}, ["1", "2", "3"])
    assert [(t.qid, t.docs, t.text_scores.tolist()) for t in pool] == [
        ("1", ["Ic"], [5.0]),
        ("2", ["Ib", "Ia", "Iz"], [3.0, 1.0, 0.0]),
        ("3", [], []),
    ]


def test_searches_by_topic_keep_the_best_rank_of_wanted_topics():
    found = searches_by_topic(
        ["Ia", "Ib"],
        [[{"topic": "1", "rank": 9, "query": "q"}, {"topic": "1", "rank": 4, "query": "r"}, {"topic": "5", "rank": 1, "query": "s"}], None],
        ["1", "2"],
    )
    assert found == {"1": {"Ia": 4}}


def test_select_images_writes_pro_then_con_lists_ranked_from_one():
    pool = [Candidates("1", ["Ia", "Ib", "Ic"], np.array([3.0, 2.0, 1.0])), Candidates("2", [], np.zeros(0))]
    hashes = {"Ia": 0, "Ib": 0xFFFF, "Ic": 0xFFFF << 32}  # 16 or more bits apart
    pro = {"Ia": 0.9, "Ib": 0.1, "Ic": 0.7}
    table = select_images(
        pool, {}, hashes, lambda qid, docs: np.array([pro[d] for d in docs]), found_weight=0.0, near_duplicate_bits=10
    )
    rows = table.to_pylist()
    assert [(r["stance"], r["doc"], r["rank"]) for r in rows] == [(PRO, "Ia", 1), (PRO, "Ic", 2), (CON, "Ib", 1)]
    assert rows[0]["score"] == 0.9 and abs(rows[2]["score"] - 2 / 3 * 0.9) < 1e-12
