"""Query formulations: the text a run searches with, taken from a topic. Each is a function of the topic, named
in a run's `query`; the shared ones are here, a track adds its own (tracks.track.RankingTrack.queries)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from argrank.formats.topics import Topic


def title(topic: Topic) -> str:
    return topic.title


def title_and_description(topic: Topic) -> str:
    """A missing description (titles-only topics) contributes nothing."""
    return f"{topic.title} {topic.description or ''}"


# The formulations every ranking track may use; a track adds its own (tracks.track.RankingTrack.queries).
SHARED_QUERIES: dict[str, Callable[[Topic], str]] = {"title": title, "title+description": title_and_description}
