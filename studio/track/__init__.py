"""The lecture track: the notes read as cues, their steps and timings, and where each number comes from."""
