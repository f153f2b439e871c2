"""Generators of data, outside the runtime library: the synthetic args.me corpus the benchmark runs on, and the
writers of the embedded collections in data/ (images, perspective). Run from the repository root with
PYTHONPATH=. (see each module's docstring)."""
