"""sitebuild.widgets: the widget table page.js imports, derived from the templates."""

from __future__ import annotations

import shutil

import pytest

from sitebuild import widgets
from sitebuild.errors import BuildError
from sitebuild.site import TEMPLATES


def test_every_widget_the_templates_write_has_its_module_and_nothing_else_is_listed():
    table = widgets.widgets(TEMPLATES)
    assert table == {name: f"{name}.js" for name in ("fig-002", "fig-004", "fig-005", "fig-006", "fig-007",
                                                     "lab", "predict", "quiz", "trained", "whatif",
                                                     "whatif-matrix")}
    for module in table.values():
        assert "export function mount(" in (TEMPLATES / "static" / "js" / module).read_text(encoding="utf-8")


def test_a_widget_without_its_module_fails_the_build_naming_the_template(tmp_path):
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    figure = templates / "figures" / "fig-001.html"
    figure.write_text(figure.read_text(encoding="utf-8").replace(
        "<figure ", '<figure data-widget="no-such-widget" ', 1), encoding="utf-8")
    with pytest.raises(BuildError, match=r'fig-001\.html: data-widget="no-such-widget" has no module '
                                         r"static/js/no-such-widget\.js"):
        widgets.widgets(templates)
