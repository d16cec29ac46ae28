"""One module per lecture artifact; each defines a LectureScene subclass with a ``scene_id``."""
