"""Which runs file publishes into a folder of fixed name (an experiment's, the submission's).

Two runs files that name one experiment (`a/sweep.yaml` and `b/sweep.yaml`, or `experiment: runs` beside runs.yaml)
publish into one folder and replace each other's tracks without a word; so do two runs files with `submission:
true`. The first to publish claims the folder in a small file in it; another runs file is refused before its run
starts, naming the first, while that file exists (a runs file moved or deleted gives its folders up).
"""

from __future__ import annotations

from pathlib import Path

from argrank.core.atomic import atomic_write_text
from argrank.core.errors import InputError

OWNER = ".runs-file"  # in a published folder of fixed name: the runs file that publishes there, resolved


def check_owner(folder: Path, runs_file: str | Path, what: str) -> None:
    """InputError where another runs file, still present, publishes into `folder` (`what` names it in messages):
    asked before a run starts, so that a conflict costs no work."""
    owner = _owner(folder)
    if owner and owner != str(Path(runs_file).resolve()) and Path(owner).is_file():
        raise InputError(runs_file, "", f"{what} ({folder}) is published by {owner}: two runs files would replace "
                         "each other's results there; name this experiment otherwise (`experiment:`)")  # fmt: skip


def claim(folder: Path, runs_file: str | Path, what: str) -> None:
    """check_owner, then record `runs_file` as the one publishing into `folder` (done when it first publishes)."""
    check_owner(folder, runs_file, what)
    mine = str(Path(runs_file).resolve())
    if _owner(folder) != mine:
        atomic_write_text(folder / OWNER, mine + "\n")


def _owner(folder: Path) -> str:
    try:
        return (folder / OWNER).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):  # none yet, or damaged: claimed anew
        return ""
