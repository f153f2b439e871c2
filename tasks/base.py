"""What every stage task shares: output paths that encode parameters and input fingerprints, and clean failures.

A target's path is `<output_dir>/cache/<track>/<stage>/<readable parameters>-<signature><ext>`. The signature
hashes the task's own parameters (not the paths it reads: their contents count instead), the signatures of
the tasks it requires, and the digests of the files it reads itself. So an unchanged experiment finds its
targets, a changed ranking parameter misses only from the ranking on, and a replaced corpus file misses
everything downstream of ingest.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable
from pathlib import Path

import luigi
from luigi.task import flatten

from argrank.core.errors import InputError
from argrank.core.fingerprint import digest, remember_digests_in
from argrank.core.progress import reporting

log = logging.getLogger("argrank")


def _reporting_progress(run: Callable[[CachedTask], None]) -> Callable[[CachedTask], None]:
    @functools.wraps(run)
    def reported(self: CachedTask) -> None:
        with reporting(self.report_progress):
            run(self)

    return reported


DIGESTS = "digests"  # beside the cache: input files' digests, kept across processes (core/fingerprint.py)


class argrank(luigi.Config):
    """The `[argrank]` section of luigi.cfg."""

    output_dir = luigi.Parameter(default="outputs", description="where cached stages and submissions are written")


class CachedTask(luigi.Task):
    """A stage whose single output lives at a content-addressed path."""

    # Each task names its track: a stage of one track as a class attribute, a shared stage as the `track`
    # parameter (which luigi.util.inherits passes on only where no base class already has the name).
    track: str
    stage = ""
    extension = ""
    # Parameters that only say where input files are; their contents enter through input_digests().
    location_params: tuple[str, ...] = ()

    def input_digests(self) -> list[str]:
        """Digests of the files this task reads itself (not through required tasks)."""
        return []

    def own_params(self) -> dict[str, str]:
        params = self.to_str_params(only_significant=True)
        return {k: v for k, v in sorted(params.items()) if k not in self.location_params}

    def signature(self) -> str:
        """Computed once per task object. Luigi asks every task for its output many times while it schedules, and
        each signature reaches down to the corpus fingerprint (an image collection's is a walk over its whole
        tree), so without this a graph's scheduling grows with its size squared. Luigi keeps one object per task
        and parameters; a build in a process that built before starts with none (workflows.setup.fresh_build),
        so files changed between two builds are seen."""
        if "_signature" not in self.__dict__:
            remember_digests_in(Path(argrank().output_dir) / DIGESTS)
            upstream = [task.signature() for task in flatten(self.requires())]
            try:
                inputs = self.input_digests()
            except (InputError, OSError):
                # Unreadable now: the target cannot exist, and run() meets the same problem and reports it.
                inputs = ["unreadable"]
            self._signature = digest(self.task_family, self.own_params(), upstream, inputs)
        return self._signature

    def output(self) -> luigi.LocalTarget:
        readable = "-".join(f"{k}={v}" for k, v in self.own_params().items()) or self.stage
        readable = re.sub(r"[^A-Za-z0-9=.,+_-]+", "_", readable)[:120]
        folder = Path(argrank().output_dir) / "cache" / self.track / self.stage
        return luigi.LocalTarget(str(folder / f"{readable}-{self.signature()}{self.extension}"))

    @property
    def output_path(self) -> Path:
        return Path(self.output().path)

    def on_failure(self, exception: BaseException) -> str:
        if isinstance(exception, InputError):
            return f"bad input: {exception}"
        return super().on_failure(exception)

    def report_progress(self, what: str, done: int, total: int | None) -> None:
        """Tell the scheduler how far the stage is (the luigid page shows both)."""
        self.set_status_message(f"{what}: {done:,}" + (f" of {total:,}" if total else ""))
        if total:
            self.set_progress_percentage(round(100 * done / total))

    def __init_subclass__(cls, **kwargs) -> None:
        """Every stage's run() reports the progress of the library's long loops (core.progress.track) to the
        scheduler, without each task having to say so."""
        super().__init_subclass__(**kwargs)
        if "run" in cls.__dict__:
            cls.run = _reporting_progress(cls.__dict__["run"])
