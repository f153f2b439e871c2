"""One line, not a traceback, for a Luigi configuration file that cannot be read.

Luigi reads its configuration files (`/etc/luigi/…`, `luigi.cfg`, LUIGI_CONFIG_PATH) when it is imported, and
a value when it is first asked for; a file that is not UTF-8 or not INI, holds a section twice or names an
unknown value raises there, from deep inside Luigi. The package's import and the command catch those errors and
print this line instead.
"""

from __future__ import annotations

import configparser
import os

LUIGI_FILES = ("/etc/luigi/client.cfg", "/etc/luigi/luigi.cfg", "client.cfg", "luigi.cfg")


def luigi_config_problem(error: Exception) -> str | None:
    """The line for `error`, naming the file where it can; None where the error did not come from Luigi's
    configuration."""
    if isinstance(error, configparser.Error):
        return f"Luigi's configuration: {' '.join(str(error).split())}"
    if not isinstance(error, UnicodeDecodeError):
        return None
    paths = [*LUIGI_FILES, *(path for path in os.environ.get("LUIGI_CONFIG_PATH", "").split(os.pathsep) if path)]
    for path in paths:
        try:
            with open(path, "rb") as file:
                data = file.read()
        except OSError:
            continue
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as bad:
            line = data.count(b"\n", 0, bad.start) + 1
            return f"{path}: line {line}: not valid UTF-8 (byte 0x{data[bad.start]:02x}): Luigi's configuration"
    return None
