"""One JSON value of an input file (a line of a JSON-lines file, a field holding JSON), or one line naming what is
wrong with it: beside malformed JSON, Python's reader raises RecursionError for a value nested some thousand levels
deep and ValueError for an integer of more than 4,300 digits, which were tracebacks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from argrank.core.errors import InputError


def parse_json(text: str | bytes, path: str | Path, where: str) -> Any:
    """The value `text` holds; InputError at `where` (a column added for malformed JSON) otherwise."""
    try:
        return json.loads(text)
    except UnicodeDecodeError as error:
        raise InputError(path, f"{where}, byte {error.start + 1}", "invalid UTF-8") from None
    except json.JSONDecodeError as error:
        end = text.rstrip(b"\r\n" if isinstance(text, bytes) else "\r\n")
        column = min(error.pos, len(end)) + 1  # an unfinished line ends just after its last character
        raise InputError(path, f"{where}, column {column}", f"malformed JSON: {error.msg}") from None
    except RecursionError:
        raise InputError(path, where, "JSON nested deeper than Python's reader goes (about 1,000 levels)") from None
    except ValueError:
        raise InputError(path, where, "a JSON number of more than 4,300 digits") from None
