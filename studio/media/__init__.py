"""The media room: ffmpeg and PyAV work on finished clips (GIF, posters, probes, joins) and the tool checks."""
