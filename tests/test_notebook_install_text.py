"""What the README and the example notebook tell a teacher to run installs the figures: the
package is not on PyPI (`pip install "attention-bench[notebook]"` answered "No matching
distribution", a new user's pass in review 4), so both say the same clone-folder commands,
npm's (esbuild bundles the widget's module) before pip's.

Run as written in a fresh clone and a fresh venv (issue 36): `npm ci`, then
`pip install ".[notebook]" jupyterlab` installs working figures; this test keeps the two texts
saying those commands, in that order."""

from __future__ import annotations

import json
import re

from sitebuild.site import ROOT

README = ROOT / "README.md"
NOTEBOOK = ROOT / "notebooks" / "attention-in-five-cells.ipynb"


def readme_blocks() -> list[list[str]]:
    """The commands of each shell block in the README's "In a notebook" section."""
    section = README.read_text(encoding="utf-8").split("\n## In a notebook\n", 1)[1]
    section = section.split("\n## ", 1)[0]
    return [[line.split("#", 1)[0].strip() for line in block.splitlines() if line.strip()]
            for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def readme_commands() -> list[str]:
    """The commands of the README's clone-folder block (the one that starts with npm's)."""
    return next(b for b in readme_blocks() if b[0] == "npm ci")


# the line that installs from a deployed copy of the site: a direct reference to its wheel,
# not a name PyPI would be asked for (tests/test_notebook_wheel.py runs it against a served site)
FROM_THE_SITE = re.compile(r'pip install "attention-bench\[notebook\] @ https://<the site>/notebook/'
                           r'attention_bench-[\d.]+-py3-none-any\.whl"')


def notebook_commands() -> list[str]:
    """The commands of the code block in the example notebook's first cell."""
    cell = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"][0]
    block = re.search(r"```\n(.*?)```", "".join(cell["source"]), re.S).group(1)
    return [line.strip() for line in block.splitlines() if line.strip()]


def test_the_readme_and_the_notebook_say_the_install_that_works():
    readme, notebook = readme_commands(), notebook_commands()
    # from the clone's folder: npm first (the bundle needs esbuild), then the folder itself
    assert readme[0] == notebook[0] == "npm ci"
    assert notebook[1] == 'pip install ".[notebook]"'
    assert readme[1].startswith(notebook[1] + " ")  # the README adds JupyterLab to it
    assert readme[2].startswith("jupyter lab notebooks/")
    assert FROM_THE_SITE.fullmatch(readme_blocks()[0][0])  # first: no clone needed
    for text in (FROM_THE_SITE.sub("", README.read_text(encoding="utf-8")), NOTEBOOK.read_text(encoding="utf-8")):
        assert not re.search(r'pip install \\?"attention-bench', text)  # a name PyPI lacks
    # what npm ci needs is said where the commands are
    for text in (README.read_text(encoding="utf-8"), "".join(json.loads(
            NOTEBOOK.read_text())["cells"][0]["source"])):
        assert "Node.js 20+" in text and "not on PyPI" in text
