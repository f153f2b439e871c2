"""fewer_collections: a higher young threshold inside the block, the caller's back after it, cycles still freed."""

from __future__ import annotations

import gc
import weakref

import pytest

from argrank.core.collector import YOUNG, fewer_collections
from argrank.text import multilingual


class Node:
    pass


@pytest.fixture
def default_threshold():
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*saved)


def test_the_threshold_is_raised_inside_and_restored_after_even_on_error(default_threshold):
    with fewer_collections():
        assert gc.get_threshold() == (YOUNG, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)
    with pytest.raises(KeyError), fewer_collections():
        raise KeyError("bad record")
    assert gc.get_threshold() == (700, 10, 10)


def test_a_caller_threshold_above_young_is_kept(default_threshold):
    gc.set_threshold(YOUNG * 2, 10, 10)
    with fewer_collections():
        assert gc.get_threshold()[0] == YOUNG * 2


def test_a_cycle_is_still_freed_inside_the_block(default_threshold):
    with fewer_collections():
        gc.collect()
        node = Node()
        node.me = node  # a cycle: reference counting alone never frees it
        dead = weakref.ref(node)
        del node
        kept = [[] for _ in range(YOUNG * 3)]  # allocations past the threshold start a young pass
        assert dead() is None
        del kept


def test_an_analyzer_is_built_with_fewer_collections(default_threshold, monkeypatch):
    thresholds = []
    monkeypatch.setattr(multilingual, "Analyzer", lambda language: thresholds.append(gc.get_threshold()[0]))
    multilingual.shared_analyzer.__wrapped__("en")  # past the per-process cache
    assert thresholds == [YOUNG] and gc.get_threshold()[0] == 700
