"""Each track's Luigi tasks, one module per track (`tasks.tracks.<name>`), defining `TASKS` (tasks.track_tasks):
the top of the graph's floors, importing the shared stages, which find a track's tasks by its name."""
