"""One worker of the toy build under luigid: `python -m centraltoy FOLDER PORT`."""

import os
import sys

from centraltoy import FOLDER, Later

from workflows.central import central_build

os.environ[FOLDER] = sys.argv[1]
root = Later()
result, gave_up = central_build(root, "127.0.0.1", int(sys.argv[2]), 1)
print(f"status {result.status.name}, gave up: {gave_up}", file=sys.stderr)
sys.exit(0 if root.complete() else 1)
