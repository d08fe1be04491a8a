# The README's two commands: `make serve` and `make test`. Each sets up what it needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000

.PHONY: serve test

serve: $(VENV)/.site
	$(BIN)/python -c "from attention import toy; tr = toy.trace('rises'); print('weights', tr.weights.round(3), 'output', tr.output.round(3))"

test: $(VENV)/.test
	$(BIN)/python -m pytest

$(VENV)/.site: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[site]'
	touch $@

$(VENV)/.test: pyproject.toml $(VENV)/.site
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@
