"""`argrank report`: where the submission is, and its mean scores."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workflows.luigi_config import configured_output_dir


def cmd_report(args: argparse.Namespace) -> int:
    """Where the submission is, and its mean scores: by default under luigi.cfg's output_dir, where the graph
    published it, not a fixed outputs/ that may hold an older experiment."""
    root = Path(args.dir) if args.dir else Path(configured_output_dir()) / "submission"
    # Hidden entries are a killed publisher's temporary folders, not tracks.
    tracks = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")) if root.is_dir() else []
    if not tracks:
        print(f"no submission under {root}; run `make run` first", file=sys.stderr)
        return 1
    for folder in tracks:
        print(f"\n== {folder.name}: {folder}")
        # Runs: <tag>.txt (TREC runs), or <scenario>/<split>.jsonl (perspective).
        for run in [*sorted(folder.glob("*.txt")), *sorted(folder.glob("*/*.jsonl"))]:
            if run.name != "evaluation.txt":
                print(f"run        {run}")
        evaluation = folder / "evaluation.json"
        if evaluation.exists():
            print(f"evaluation {evaluation}\n")
            print((folder / "evaluation.txt").read_text(encoding="utf-8").rstrip())
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dir", help="the submission folder (default: <output_dir>/submission, from luigi.cfg)")
    parser.set_defaults(handler=cmd_report)
