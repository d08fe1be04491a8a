# The README's two commands, `make serve` and `make test`. Each installs what it needs first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: serve test benchmark system-packages

serve: $(VENV)/.site
	$(BIN)/python build.py serve --port $(PORT)

test: $(VENV)/.test system-packages node_modules/.installed
	$(BIN)/python -m pytest

benchmark: $(VENV)/.test system-packages node_modules/.installed
	$(BIN)/python build.py benchmark

# Debian's Chromium (driven by Playwright with executable_path), the fonts the pages use,
# Java for the Nu HTML Checker, and Node.js for the Pyodide parity test.
system-packages:
	@if ! command -v chromium >/dev/null || ! fc-list | grep -q "DejaVu Math TeX Gyre" \
	    || ! command -v java >/dev/null || ! command -v node >/dev/null; then \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends \
	    chromium fonts-dejavu-core fonts-dejavu-extra default-jre-headless nodejs npm >/dev/null; \
	fi
	@chromium --version

# The Nu HTML Checker (vnu-jar), pinned in package-lock.json.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(VENV)/.site: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[site]'
	touch $@

$(VENV)/.test: pyproject.toml $(VENV)/.site
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@
