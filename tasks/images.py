"""Select images: a topic's text ranking, its searches and the stance model to its 10 PRO and 10 CON images."""

from __future__ import annotations

import luigi
import pyarrow.parquet as pq
from luigi.util import inherits

from argrank.config import NEAR_DUPLICATE_BITS
from argrank.core.atomic import atomic_path
from argrank.core.fingerprint import file_digest
from argrank.core.model_file import load_model
from argrank.formats.topics import read_topics
from argrank.tracks.images.selection import candidates, searches_by_topic, select_images
from argrank.tracks.images.stance import MODEL_TYPES, pro_probability
from argrank.tracks.images.texts import stance_texts
from tasks.base import CachedTask, log
from tasks.ingest import INGESTS
from tasks.rank import RankTopics
from tasks.model_folder import model_path
from tasks.stance import TrainImageStance


@inherits(RankTopics)
class SelectImages(CachedTask):
    """Each topic's 10 PRO and 10 CON images from its text ranking, the searches that found them and their stance."""

    stance_training = luigi.OptionalParameter(
        default=None, description="training qrels; none: no stance model, the untrained cue-word scorer decides"
    )
    stance_model = luigi.DictParameter(default={}, description="stance classifier settings")
    found_weight = luigi.FloatParameter(default=0.0, description='weight of "a search for the topic found it"')
    near_duplicate_bits = luigi.IntParameter(
        default=NEAR_DUPLICATE_BITS, description="hashes fewer bits apart are near-duplicates"
    )

    stage = "selection"
    extension = ".parquet"
    location_params = ("corpus", "topics", "stance_training")

    def requires(self) -> dict[str, luigi.Task]:
        needs = {"ranking": self.clone(RankTopics), "documents": INGESTS[self.track](corpus=self.corpus)}
        if self.stance_training:
            needs["model"] = self.model()
        return needs

    def model(self) -> TrainImageStance:
        """The one model all trained runs on this collection, topics and training qrels share."""
        return TrainImageStance(
            training=self.stance_training, corpus=self.corpus, topics=self.topics, **self.stance_model
        )

    def input_digests(self) -> list[str]:
        return [file_digest(self.topics)]

    def run(self) -> None:
        topics = {topic.number: topic.title for topic in read_topics(self.topics)}
        documents = pq.read_table(self.input()["documents"].path, columns=["id", "phash", "rankings"])
        found = searches_by_topic(documents["id"].to_pylist(), documents["rankings"].to_pylist(), topics)
        ranking = pq.read_table(self.input()["ranking"].path).to_pydict()
        pool = candidates(zip(ranking["qid"], ranking["doc"], ranking["score"]), found, topics)
        wanted = {doc for topic in pool for doc in topic.docs}
        hashes = {
            doc: phash
            for doc, phash in zip(documents["id"].to_pylist(), documents["phash"].to_pylist())
            if doc in wanted
        }
        texts = stance_texts(self.input()["documents"].path, wanted)
        if "model" in self.input():
            model = load_model(model_path(self.input()["model"].path), MODEL_TYPES)
        else:
            model = None
            log.info("image stance: no training set for this run, so the untrained cue-word scorer decides")

        def probability(qid: str, docs: list[str]):
            return pro_probability(model, [texts[doc] for doc in docs], [topics[qid]] * len(docs))

        table = select_images(pool, found, hashes, probability, self.found_weight, self.near_duplicate_bits)
        with atomic_path(self.output_path) as tmp:
            pq.write_table(table, tmp)
