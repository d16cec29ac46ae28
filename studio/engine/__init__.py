"""The render engine: find scenes, key the cache, run workers (forked from a zygote), publish what they made.
It knows nothing of the speaker's notes: the track annotates its manifest from above."""
