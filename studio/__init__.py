"""The render pipeline: discover scenes, cache by content, render in parallel, publish."""
