# The README's two commands, `make serve` and `make test`. Each installs what it needs first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: serve test benchmark system-packages

serve: $(VENV)/.site
	$(BIN)/python build.py serve --port $(PORT)

test: $(VENV)/.test system-packages
	$(BIN)/python -m pytest

benchmark: $(VENV)/.test system-packages
	$(BIN)/python build.py benchmark

# Debian's Chromium (driven by Playwright with executable_path) and the fonts the pages use.
system-packages:
	@if ! command -v chromium >/dev/null || ! fc-list | grep -q "DejaVu Math TeX Gyre"; then \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends \
	    chromium fonts-dejavu-core fonts-dejavu-extra >/dev/null; \
	fi
	@chromium --version

$(VENV)/.site: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[site]'
	touch $@

$(VENV)/.test: pyproject.toml $(VENV)/.site
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@
