"""The `argrank` commands (workflows.cli), one module each, its arguments and its handler: a command's module is
imported only when the command is given, so each imports what it needs at its top and the others cost nothing.
What a track adds to the command line is in workflows.tracks."""
