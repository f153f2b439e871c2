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
from typing import Any

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
        check_values(config)
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


def check_values(config: configparser.RawConfigParser) -> None:
    """configparser.Error, naming the file, section and key, for a value the parameter it sets cannot take (`log_level
    = LOUD`, `keep_alive = maybe`, `timeout = soon`, a port that is no number), or a negative number in Luigi's own
    sections: every section of a configuration class or task loaded so far (Luigi's own; argrank's once the graph is
    loaded), checked before any work, where Luigi would meet each value as a traceback once it first asks for it."""
    import luigi
    from luigi.task_register import Register, TaskClassException

    for section in config.sections():
        try:
            owner = Register.get_task_cls(section)
        except TaskClassException:
            continue  # a section nothing loaded reads
        parameters = _parameters_by_key(owner, section, luigi.Parameter)
        for key, value in config.items(section, raw=True):
            parameter = parameters.get(key)
            if parameter is None:
                continue
            problem = _value_problem(parameter, value, owner.__module__.startswith("luigi."))
            if problem:
                raise configparser.Error(f"{_defined_in(section, key)}: [{section}] {key} = {value!r}: {problem}")


def _parameters_by_key(owner: Any, section: str, kind: type) -> dict[str, Any]:
    """The keys of `section` that set a parameter of `owner`: its name, with dashes for underscores too, and the
    older name a parameter may also be read under (Luigi's `config_path`, `default-scheduler-port` for
    `scheduler_port`)."""
    found: dict[str, Any] = {}
    for name in dir(owner):
        parameter = getattr(owner, name, None)
        if not isinstance(parameter, kind):
            continue
        found[name] = found[name.replace("_", "-")] = parameter
        older = getattr(parameter, "_config_path", None)
        if older and older.get("section") == section:
            found[older["name"]] = found[older["name"].replace("-", "_")] = parameter
    return found


def _value_problem(parameter: Any, value: str, luigis_own: bool) -> str | None:
    """Why `parameter` cannot take `value`, or None."""
    try:
        parsed = parameter.normalize(parameter.parse(value))
    except Exception:  # noqa: BLE001 (each parameter type raises its own kind)
        choices = getattr(parameter, "_choices", None)
        if choices:
            return f"expected one of {', '.join(sorted(map(str, choices)))}"
        return f"expected {_KINDS.get(type(parameter).__name__, 'a value of its kind')}"
    number = parsed.total_seconds() if hasattr(parsed, "total_seconds") else parsed
    if luigis_own and isinstance(number, (int, float)) and not isinstance(number, bool) and number < 0:
        return "expected a number of at least 0"
    return None


_KINDS = {
    "IntParameter": "a whole number", "FloatParameter": "a number", "BoolParameter": "true or false",
    "TimeDeltaParameter": "a duration (a number of seconds, or such as 1 hour 30 minutes)",
    "OptionalIntParameter": "a whole number or nothing", "OptionalFloatParameter": "a number or nothing",
    "OptionalBoolParameter": "true, false or nothing", "SecondsParameter": "a number of seconds above 0",
}  # fmt: skip


def _defined_in(section: str, key: str) -> str:
    """The configuration file that gives `key` of `section` its value: the last, in the order Luigi reads them, that
    sets it (else "Luigi's configuration")."""
    found = "Luigi's configuration"
    paths = [*LUIGI_FILES, *(path for path in os.environ.get("LUIGI_CONFIG_PATH", "").split(os.pathsep) if path)]
    for path in paths:
        reader = configparser.RawConfigParser(strict=False)
        try:
            reader.read(path, encoding="utf-8")
        except (configparser.Error, UnicodeDecodeError):
            continue
        if reader.has_option(section, key):
            found = path
    return found


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
