"""The perspective track's command line: its parts of `argrank evaluate` and `compare` (commands.py) and
`argrank perspective-cv` (cv.py)."""
