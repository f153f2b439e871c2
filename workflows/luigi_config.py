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
RETCODES = "retcode"  # the section whose values the `luigi` command reads as exit codes, after its run


def retcode_problem(config: configparser.RawConfigParser) -> str | None:
    """The line for a `[retcode]` value that is not a whole number (`task_failed = thirty`), which the `luigi` command
    would meet only after the whole build, as a traceback; None where every one is."""
    if not config.has_section(RETCODES):
        return None
    for name, value in config.items(RETCODES, raw=True):
        try:
            int(value)
        except ValueError:
            return f"Luigi's configuration: [{RETCODES}] {name} = {value!r}: not a whole number (an exit code)"
    return None


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
