"""What every stage task shares: output paths that encode parameters and input fingerprints, and clean failures.

A target's path is `<output_dir>/cache/<track>/<stage>/<readable parameters>-<signature><ext>`. The signature
hashes the task's own parameters (not the paths it reads: their contents count instead), the signatures of
the tasks it requires, and the digests of the files it reads itself. So an unchanged experiment finds its
targets, a changed ranking parameter misses only from the ranking on, and a replaced corpus file misses
everything downstream of ingest.
"""

from __future__ import annotations

import errno
import functools
import logging
import os
import re
import shutil
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import luigi
from luigi.task import flatten

from argrank.core.atomic import remove_leftovers
from argrank.core.errors import InputError
from argrank.core.fingerprint import digest, file_digest, remember_digests_in
from argrank.core.integrity import damage, forget_written, record_written, remove_target
from argrank.core.layout import cache_folder
from argrank.core.progress import reporting
from argrank.kernels import KERNELS

log = logging.getLogger("argrank")


@contextmanager
def unwritable_as_input_error(target: Path) -> Iterator[None]:
    """An output folder that is read-only or full, or a file we may not touch, is the user's to fix: one line, not a
    traceback."""
    try:
        yield
    except OSError as error:
        if error.errno in (errno.EROFS, errno.ENOSPC, errno.EDQUOT):
            raise InputError(error.filename or target, "", f"cannot write the output: {error.strerror}") from None
        if error.errno == errno.EACCES:
            raise InputError(error.filename or target, "", error.strerror) from None
        if error.errno is None and _nearly_full(target):  # numpy reports a short write, not ENOSPC
            raise InputError(target, "", f"cannot write the output: {os.strerror(errno.ENOSPC)}") from None
        raise


def _nearly_full(target: Path) -> bool:
    folder = next((p for p in (target, *target.parents) if p.exists()), Path("."))
    return shutil.disk_usage(folder).free < 1 << 20


def _checked_run(run: Callable[[CachedTask], None]) -> Callable[[CachedTask], None]:
    """A stage's run() in the frame every stage shares: leftovers of killed writes removed, its inputs checked
    against its signature before and after, its progress reported, its target's files recorded (core.integrity)."""

    @functools.wraps(run)
    def checked(self: CachedTask) -> None:
        target = self.output_path
        with unwritable_as_input_error(target):
            remove_leftovers(target.parent)
            forget_written(target)
            self.check_inputs("before it ran")
            with reporting(self.report_progress), _damaged_inputs_named(self):
                run(self)
            try:
                self.check_inputs("while it ran")
            except InputError:
                remove_target(target)
                raise
            record_written(target)

    return checked


@contextmanager
def _damaged_inputs_named(task: CachedTask) -> Iterator[None]:
    """Where a stage fails reading a cached input damaged without a trace in its size or modification time (found
    by Parquet's page checksums, say), say so in one line and remove that input, so the next run makes it again."""
    try:
        yield
    except InputError:
        raise
    except Exception:
        for required in flatten(task.requires()):
            path = getattr(required, "output_path", None)
            damaged = damage(path, deep=True) if isinstance(path, Path) and path.exists() else None
            if damaged:
                forget_written(path)
                remove_target(path)
                raise InputError(path, "", f"damaged cache file, found reading it ({damaged}): removed, so that "
                                 f"the next run makes it again ({required.stage})") from None  # fmt: skip
        raise


STEP_TIMEOUT = 1800.0  # seconds a researcher's step may run in one call, unless luigi.cfg says
DIGESTS = "digests"  # beside the cache: input files' digests, kept across processes (core/fingerprint.py)


class SecondsParameter(luigi.FloatParameter):
    """A number of seconds, finite and above 0 (ValueError otherwise, which the configuration check names)."""

    def normalize(self, x: Any) -> float:
        seconds = float(x)
        if not 0 < seconds < float("inf"):
            raise ValueError(f"expected a number of seconds above 0, got {x}")
        return seconds


class Settings(luigi.Config):
    """The `[argrank]` section of luigi.cfg (`--argrank-output-dir` and so on, on Luigi's command line)."""

    output_dir = luigi.Parameter(default="outputs", description="where cached stages and submissions are written")
    nightly_record = luigi.Parameter(
        default="", description="tonight's record (JSON) while `argrank nightly` rebuilds the report: in its trend "
        "before the history keeps it, so a nightly stopped before the end leaves no record",
    )  # fmt: skip
    kernels = luigi.ChoiceParameter(
        default="auto", choices=KERNELS, description="which build of the scoring kernels a ranking uses: auto "
        "(numba's where it loads), numba, or numpy; every build gives the same scores bit for bit",
    )  # fmt: skip
    step_timeout = SecondsParameter(
        default=STEP_TIMEOUT, description="seconds a researcher's step (re-ranker, query rewriter) may run in one "
        "call before its process is stopped and the build fails naming it",
    )  # fmt: skip

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not str(self.output_dir).strip():  # else every stage would write into the current folder
            raise InputError("luigi.cfg", "[argrank] output_dir", "empty: name the output folder (default outputs)")

    @classmethod
    def get_task_family(cls) -> str:
        return "argrank"  # the section's name, older than the class's


def optional(parameter: luigi.Parameter) -> luigi.Parameter:
    """Mark a parameter most runs leave empty: while empty, it is left out of the target's name and signature in
    every task that has it (luigi.util.inherits passes the mark on), so adding it keeps the caches written before."""
    parameter.optional = True
    return parameter


def location(parameter: luigi.Parameter) -> luigi.Parameter:
    """Mark a parameter that only says where input files are: it is left out of the target's name and signature,
    and the files' contents enter through input_digests() instead (a moved corpus finds its cache)."""
    parameter.location = True
    return parameter


class CachedTask(luigi.Task):
    """A stage whose single output lives at a content-addressed path."""

    # Each task names its track: a stage of one track as a class attribute, a shared stage as the `track`
    # parameter (which luigi.util.inherits passes on only where no base class already has the name).
    track: str
    stage = ""
    extension = ""
    # Parameters left out of the target's name and signature while empty (an option most runs do not use), so
    # the targets of the runs that do not use it stay where they were.
    omitted_when_empty: tuple[str, ...] = ()

    def input_digests(self) -> list[str]:
        """Digests of the files this task reads itself (not through required tasks)."""
        return []

    def input_files(self) -> dict[str, str]:
        """Each file its location parameters name, with its digest: what the nightly record keeps of the inputs, so
        that it can name a changed one. A folder is left to the task that reads its files (an ingest's corpus)."""
        given = [getattr(self, name) for name in sorted(self.location_params())]
        paths = sorted({file for value in given if value for file in _files(value) if isinstance(file, str) and file})
        return {path: file_digest(path) for path in paths if os.path.isfile(path)}

    @classmethod
    def location_params(cls) -> frozenset[str]:
        """The parameters marked with location(); per class, once (output() asks while Luigi schedules)."""
        return _locations(cls)

    def own_params(self) -> dict[str, str]:
        params = self.to_str_params(only_significant=True)
        omitted = (*self.omitted_when_empty, *_optional(type(self)))
        empty = {name for name in omitted if not getattr(self, name, None)}
        return {k: v for k, v in sorted(params.items()) if k not in self.location_params() and k not in empty}

    @functools.cached_property
    def signature(self) -> str:
        """Computed once per task object. Luigi asks every task for its output many times while it schedules, and
        each signature reaches down to the corpus fingerprint (an image collection's is a walk over its whole
        tree), so without this a graph's scheduling grows with its size squared. Luigi keeps one object per task
        and parameters; a build in a process that built before starts with none (workflows.setup.fresh_build),
        so files changed between two builds are seen."""
        remember_digests_in(Path(Settings().output_dir) / DIGESTS)
        upstream = [task.signature for task in flatten(self.requires())]
        try:
            inputs = self.input_digests()
        except (InputError, OSError):
            # Unreadable now: the target cannot exist, and run() meets the same problem and reports it.
            inputs = ["unreadable"]
        self._inputs = inputs
        return digest(self.task_family, self.own_params(), upstream, inputs)

    def check_inputs(self, when: str) -> None:
        """InputError if the files this task reads itself are not those its signature was computed from, so a
        target never holds the results of other inputs (a qrels file edited after scheduling, say)."""
        self.signature  # noqa: B018 (computes `_inputs` where not yet done)
        now = self.input_digests()
        if now != self._inputs:
            given = [getattr(self, name, None) for name in sorted(self.location_params())]
            files = ", ".join(str(file) for value in given if value for file in _files(value))
            raise InputError(files or self.task_family, "", f"changed {when}; its result is not kept: run again")

    def complete(self) -> bool:
        """Done when the target exists and is as it was written (else, with a warning, the stage is done again)."""
        target = self.output_path
        if not target.exists():
            return False
        damaged = damage(target)
        if damaged:
            log.warning("%s: damaged cache file %s; %s runs again", self.task_family, damaged, self.stage)
            return False
        return True

    def output(self) -> luigi.LocalTarget:
        return self.target

    @functools.cached_property
    def target(self) -> luigi.LocalTarget:
        """Made once per task object, as its signature: Luigi asks for the output many times while it schedules."""
        readable = "-".join(f"{k}={v}" for k, v in self.own_params().items()) or self.stage
        readable = re.sub(r"[^A-Za-z0-9=.,+_-]+", "_", readable)[:120]
        folder = cache_folder(Settings().output_dir) / self.track / self.stage
        return luigi.LocalTarget(str(folder / f"{readable}-{self.signature}{self.extension}"))

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
        """Every stage's run() is checked and reported the same way (_checked_run), without each task saying so."""
        super().__init_subclass__(**kwargs)
        if "run" in cls.__dict__:
            cls.run = _checked_run(cls.__dict__["run"])


@functools.cache
def _locations(task: type[CachedTask]) -> frozenset[str]:
    return frozenset(name for name, parameter in task.get_params() if getattr(parameter, "location", False))


@functools.cache
def _optional(task: type[CachedTask]) -> frozenset[str]:
    return frozenset(name for name, parameter in task.get_params() if getattr(parameter, "optional", False))


def _files(value) -> list:
    """A location parameter's files: the value itself, a list's items, or a mapping's values (named qrels)."""
    if isinstance(value, Mapping):
        return list(value.values())
    return list(value) if isinstance(value, tuple | list) else [value]
