"""Luigi's configuration for the `argrank` command and the graph: read when first needed, and one line, not a
traceback, for a file that cannot be read.

Luigi reads its configuration files (`/etc/luigi/…`, `luigi.cfg`, LUIGI_CONFIG_PATH) when it is imported, and
a value when it is first asked for; a file that is not UTF-8 or not INI, holds a section twice or names an
unknown value raises there, from deep inside Luigi. The package's import and the command catch those errors and
print this line instead.

Luigi is imported by `luigi_configuration`, when a command first needs its configuration, not by this module: the
commands that only evaluate (`argrank compare`, `evaluate`, …) read it only for the output folder, where no
--outputs is given, so their `--help`, and a run given --outputs, load no Luigi (pyproject.toml's import contracts).
"""

from __future__ import annotations

import configparser
import os

from argrank.core.errors import InputError

LUIGI_FILES = ("/etc/luigi/client.cfg", "/etc/luigi/luigi.cfg", "client.cfg", "luigi.cfg")
RETCODES = "retcode"  # the section whose values the `luigi` command reads as exit codes, after its run


def luigi_configuration() -> configparser.RawConfigParser:
    """Luigi's configuration as Luigi reads it, its exit codes checked (check_retcodes); configparser.Error or
    UnicodeDecodeError for a file Luigi cannot read (luigi_config_problem says it in one line)."""
    from luigi.configuration import get_config  # here, not at the top: see the module's docstring

    config = get_config()
    if isinstance(config, configparser.RawConfigParser):  # not Luigi's TOML reader (LUIGI_CONFIG_PARSER=toml)
        check_retcodes(config)
    return config


def configured_output_dir() -> str:
    """luigi.cfg's `[argrank] output_dir` (default `outputs`): where a command without --outputs reads and writes,
    as the `luigi` command does. InputError for an empty one, which would scatter the outputs in the current folder."""
    value = luigi_configuration().get("argrank", "output_dir", "outputs")
    if not str(value).strip():
        raise InputError("luigi.cfg", "[argrank] output_dir", "empty: name the output folder (default outputs)")
    return str(value)


def check_retcodes(config: configparser.RawConfigParser) -> None:
    """configparser.Error for a `[retcode]` value that is not a whole number (`task_failed = thirty`), which the
    `luigi` command would meet only after the whole build, as a traceback."""
    if not config.has_section(RETCODES):
        return
    for name, value in config.items(RETCODES, raw=True):
        try:
            int(value)
        except ValueError:
            raise configparser.Error(f"[{RETCODES}] {name} = {value!r}: not a whole number (an exit code)") from None


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
