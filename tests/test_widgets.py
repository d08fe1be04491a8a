"""sitebuild.widgets: the widget table page.js imports, derived from the templates."""

from __future__ import annotations

import shutil

import pytest

from sitebuild import modules, widgets
from sitebuild.errors import BuildError
from sitebuild.site import TEMPLATES


def test_every_widget_the_templates_write_has_its_module_and_nothing_else_is_listed():
    table = widgets.widgets(TEMPLATES)
    assert table == {name: f"figures/{name}.js" for name in ("fig-002", "fig-004", "fig-005", "fig-006", "fig-007", "fig-009", "fig-010",
                                                     "handout", "lab", "predict", "quiz", "trained", "whatif",
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
                                         r"static/js/figures/no-such-widget\.js"):
        widgets.widgets(templates)


def test_the_page_plumbing_imports_no_figure_module():
    """static/js/ is the page's plumbing, static/js/figures/ the figures' controllers: page.js
    loads those through the table the build writes, and no plumbing module imports one."""
    js = TEMPLATES / "static" / "js"
    figures = {p.resolve() for p in (js / "figures").glob("*.js")}
    assert len(figures) >= 11
    for plumbing in js.glob("*.js"):
        reached = modules.graph(plumbing.resolve())
        assert not reached & figures, (plumbing.name, sorted(p.name for p in reached & figures))


def test_the_plumbing_check_finds_a_figure_imported(tmp_path):
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "fig-002.js").write_text("export const mount = 1;\n")
    (tmp_path / "page.js").write_text('import { mount } from "./figures/fig-002.js";\n')
    assert (tmp_path / "figures" / "fig-002.js").resolve() in modules.graph((tmp_path / "page.js").resolve())
