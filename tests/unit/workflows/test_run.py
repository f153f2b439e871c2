"""`argrank run`'s log file: a disk that fills up under it is one warning, not a traceback per line logged."""

from __future__ import annotations

import logging
from pathlib import Path

from workflows.run import _LogFile


def test_a_log_file_on_a_full_disk_warns_once_and_stops(capsys):
    """Linux's /dev/full: every write to it fails as on a full disk."""
    log = logging.getLogger("argrank.test_run")
    log.propagate = False  # only this handler: others that earlier tests left on the root write elsewhere
    handler = _LogFile(Path("/dev/full"))
    log.addHandler(handler)
    try:
        for number in range(5):
            log.warning("line %d", number)
    finally:
        log.removeHandler(handler)
        handler.close()
    err = capsys.readouterr().err
    assert err == "argrank: warning: /dev/full: cannot write Luigi's log (No space left on device): it stops here\n"
    assert handler.broken
