# The two commands of the README. Each installs what is missing first.
PY := .venv/bin/python

.PHONY: render test bench setup clean

render:
	@bash scripts/setup.sh render
	$(PY) render.py --quality high

test:
	@bash scripts/setup.sh test
	$(PY) -m pytest

bench:
	@bash scripts/setup.sh test
	$(PY) bench/run.py

setup:
	@bash scripts/setup.sh test

clean:
	rm -rf out scratch
