# The two commands of the README. Each installs what is missing first.
PY := .venv/bin/python

.PHONY: render test check-clients bench setup clean

render:
	@bash scripts/setup.sh render
	$(PY) render.py --quality high

# Test files run in parallel, one file per worker (its fixtures stay shared): on 2 cores the
# whole-lecture render overlaps the scene checks instead of running after them.
test:
	@bash scripts/setup.sh test
	$(PY) -m pytest -n auto --maxprocesses 4 --dist loadfile --durations=15

# Only the tests that drive the real clients: the deck in LibreOffice Impress, the rehearsal
# page and presenter window in headless Chromium (both also run in make test).
check-clients:
	@bash scripts/setup.sh test
	$(PY) -m pytest tests/test_deck_clients.py
	$(PY) -m pytest -m browser

bench:
	@bash scripts/setup.sh test
	$(PY) bench/run.py

setup:
	@bash scripts/setup.sh test

clean:
	rm -rf out scratch
