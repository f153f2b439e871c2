"""What a track adds to the command line, one module (or package) per track, named by the track
(Track.commands, Track.command_line): the only place outside the track's own package and task module that names it.
"""
