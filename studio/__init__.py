"""The lecture studio: renders the scenes, then carries them to the speaker.

Rooms, bottom to top (imports point down only; tests/test_layers.py holds it):
- config, errors, atomic, lock: what every room shares;
- media/: ffmpeg and PyAV on finished clips (GIF, posters, joins, probes) and the tool checks;
- manim_hooks/: everything that reaches into Manim, PyAV or svgelements, behind install()/uninstall();
- engine/: find scenes, key the cache, run the workers, publish a render (knows nothing of the notes);
- track/: the speaker's notes read as cues, steps, timings and the numbers' sources;
- present/: the rehearsal page, the deck, the ledger and the local server;
- cli: render.py's arguments and what they run.
"""
