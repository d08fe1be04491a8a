# The README's two commands, `make serve` and `make test`. Each installs what it needs first:
# `make serve` only Python packages from PyPI (no system package), `make test` also the system
# tools the tests drive (Chromium, fonts, Java, Node.js), each only when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
# Test workers: one per core (pytest-xdist). The browser tests spend much of their time waiting
# for a page or for Python to boot, so two cores run the suite in well under two-thirds the time.
JOBS   ?= auto
# The notebook widget's module, bundled by esbuild (see its rule below): English's stands for
# the set, one per language, which the rule writes together.
BUNDLE := attention_notebook/static/widget-en.js

.PHONY: serve test lint benchmark system-packages

serve: $(VENV)/.site
	$(BIN)/python build.py serve --port $(PORT)

test: lint $(VENV)/.test system-packages node_modules/.installed $(BUNDLE)
	$(BIN)/python -m pytest -n $(JOBS) --dist worksteal $(PYTEST_FLAGS)

# Ruff (its rules, and why each is on or off, in pyproject.toml) and ESLint (eslint.config.mjs,
# pinned in package-lock.json): any finding fails, before a test runs.
lint: $(VENV)/.test node_modules/.installed
	$(BIN)/ruff check .
	npx --no-install eslint .

benchmark: $(VENV)/.test system-packages node_modules/.installed
	$(BIN)/python build.py benchmark

# Debian's Chromium (driven by Playwright with executable_path), the fonts the pages use,
# Java for the Nu HTML Checker, and Node.js with npm for the Pyodide parity test: each is
# checked and installed on its own, only when missing (see tools/install-system-tools).
system-packages:
	@tools/install-system-tools
	@chromium --version

# The notebook widget's module: its entry and the site's render modules, bundled by esbuild
# (pinned in package-lock.json) into one file per language the package carries (sitebuild/notebook_bundle.py).
$(BUNDLE): node_modules/.installed $(VENV)/.site $(wildcard templates/static/js/*.js templates/static/js/figures/*.js attention_notebook/js/*.js attention/strings/*.toml)
	$(BIN)/python -m sitebuild.notebook_bundle

# The Nu HTML Checker (vnu-jar) and esbuild, pinned in package-lock.json.
node_modules/.installed: package.json package-lock.json | system-packages
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(VENV)/.site: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[site]'
	touch $@

# torch==2.13.0 (CPU) first, so nothing that depends on torch can pull a multi-GB CUDA build.
$(VENV)/.test: pyproject.toml $(VENV)/.site
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@
