// The notebook's figures: one anywidget module that draws with the site's own render modules.
// The kernel sends the figure's markup (the site's templates, rendered by sitebuild.fragment)
// and every answer; this module mounts the same widgets the site's pages mount (page.js), on a
// store whose requests go to the kernel, where attention.protocol.bridge answers them as the browser's
// worker would. No number is computed here. esbuild bundles this file with the modules it
// imports into one self-contained ES module per language (sitebuild/notebook_bundle.py): the
// words those modules say (i18n.js) are the bundle's language, which the kernel chose as the
// widget's (lang=), as its markup's and its answers' are; nothing here picks a language.

import { createStore } from "../../templates/static/js/store.js";
import * as fig002 from "../../templates/static/js/figures/fig-002.js";
import * as fig004 from "../../templates/static/js/figures/fig-004.js";
import * as fig005 from "../../templates/static/js/figures/fig-005.js";
import * as fig006 from "../../templates/static/js/figures/fig-006.js";
import * as fig009 from "../../templates/static/js/figures/fig-009.js";
import * as whatif from "../../templates/static/js/figures/whatif.js";
import * as whatifMatrix from "../../templates/static/js/figures/whatif-matrix.js";

// The widgets a notebook figure can hold, by their data-widget name, as page.js names them.
const WIDGETS = {
  "fig-002": fig002, "fig-004": fig004, "fig-005": fig005, "fig-006": fig006, "fig-009": fig009, whatif, "whatif-matrix": whatifMatrix,
};
let views = 0;

/** Whether the notebook around the figure is dark: JupyterLab and Notebook 7, VS Code, marimo
 * and Colab each say so in their own way; the reader's system setting otherwise. */
export function isDark(doc = document) {
  const body = doc.body;
  const html = doc.documentElement;
  if (body.dataset.jpThemeLight) return body.dataset.jpThemeLight === "false";
  if (body.classList.contains("vscode-dark") || body.classList.contains("vscode-high-contrast")) return true;
  if (body.classList.contains("vscode-light")) return false;
  for (const element of [html, body]) {
    if (element.classList.contains("dark") || element.classList.contains("dark-theme")) return true;
    if (element.classList.contains("light") || element.classList.contains("light-theme")) return false;
    const theme = element.dataset.theme || element.getAttribute("theme");
    if (theme) return theme === "dark";
  }
  return matchMedia("(prefers-color-scheme: dark)").matches;
}

/** Keep the wrappers' scheme in step with the notebook's theme; returns how to stop. */
function followTheme(el) {
  const apply = () => {
    const dark = isDark();
    for (const wrapper of el.querySelectorAll(".attention-bench-fragment")) {
      wrapper.classList.toggle("is-dark", dark);
    }
  };
  apply();
  const watch = new MutationObserver(apply);
  for (const element of [document.documentElement, document.body]) {
    watch.observe(element, { attributes: true, attributeFilter: ["class", "data-jp-theme-light", "data-theme", "theme"] });
  }
  const media = matchMedia("(prefers-color-scheme: dark)");
  media.addEventListener("change", apply);
  return () => { watch.disconnect(); media.removeEventListener("change", apply); };
}

/** A store whose requests the kernel answers: the asking view gets its answer back by id
 * (only its newest request's), every view of the model gets the kernel's new state. */
function kernelStore(model, view) {
  let asked = 0;
  let waiting = null; // [id, answer callback] of this view's newest request
  const store = createStore((request, answer) => {
    const built = typeof request === "function" ? request() : request;
    const payload = built.url ? built : { ...built, ...store.extras };
    const id = `${view}:${++asked}`;
    waiting = [id, answer];
    model.send({ type: "ask", id, request: payload });
  });
  const settle = (id, answer) => {
    if (waiting && waiting[0] === id) {
      const [, callback] = waiting;
      waiting = null;
      callback(answer);
      return true;
    }
    return false;
  };
  const onState = () => {
    const { asked: id, answer } = model.get("_answer");
    if (!id || !settle(id, answer)) store.set({ answer });
  };
  const onMessage = (message) => {
    if (message && message.type === "answer") settle(message.id, message.answer);
  };
  model.on("change:_answer", onState);
  model.on("msg:custom", onMessage);
  const letGo = () => { model.off("change:_answer", onState); model.off("msg:custom", onMessage); };
  return [store, letGo];
}

function render({ model, el }) {
  el.classList.add("attention-bench-widget");
  el.innerHTML = model.get("_html"); // the site's templates, rendered by the kernel
  for (const note of el.querySelectorAll(".link-note")) note.remove();
  const [store, letGo] = kernelStore(model, ++views);
  const undo = [letGo, followTheme(el)];
  const roots = [...el.querySelectorAll("[data-widget]")].filter((root) => WIDGETS[root.dataset.widget]);
  for (const root of roots) {
    store.roots.push(root); // in page order: the first speaks for the group, as on the page
    const release = WIDGETS[root.dataset.widget].mount(root, store);
    if (typeof release === "function") undo.push(release);
  }
  store.set({ answer: model.get("_answer").answer }); // the kernel's state, which may be newer
  return () => { for (const release of undo) release(); };
}

export default { render };
