//# allFunctionsCalledOnLoad
// FIG-009, a sentence through a whole layer: the reader follows a word, types a sentence, sets
// T and switches parts off, and Python (attention/figures/fig_009.py) recomputes every step.
// A number's working is in its answer: selecting the number shows it, without asking Python.

import { $, bound, dropAttrs, markStale, part, setAttr, setClass, setHidden, setText, syncList } from "../dom.js";
import { t } from "../i18n.js";
import { dropped } from "./bench-notes.js";

/** The live state this widget shows, by its name in the bridge (attention.protocol.registry.STATES). */
export const STATE = "layer";

const MESSAGE_SLOTS = { sentence: "#layer-sentence-msg", temperature: "#layer-t-msg", runtime: "#layer-runtime-msg" };

/** Send the reader's whole state, changed by `change`, to Python (built when it is sent). */
function ask(store, change) {
  store.change(() => ({ figure: STATE, ...store.good.state }), change);
}

/** Write one number's text, its whole-layer twin ("was …") and its working into a cell. */
function writeNumber(td, cell) {
  setText($(td, ".v"), cell.text);
  const was = $(td, ".was");
  setText(was, cell.was || "");
  setHidden(was, !cell.was);
  setClass(td, "is-changed", cell.changed);
  td.dataset.how = cell.how;
}

function fillWord(button, word, k, focus) {
  setText(button, word);
  setAttr(button, "aria-pressed", String(k === focus));
  button.dataset.index = k;
  setClass(button.parentElement, "is-focus", k === focus);
}

// Each figure's numbered cells by their names, found once: the tables never change shape, and
// some 150 attribute queries over the whole figure were most of a click's drawing time.
const slots = new WeakMap();
function slotsOf(root) {
  if (!slots.has(root)) {
    const by = (attr) => { // the first of each name, as querySelector finds it
      const found = new Map();
      for (const el of root.querySelectorAll(`[data-${attr}]`)) if (!found.has(el.dataset[attr])) found.set(el.dataset[attr], el);
      return found;
    };
    slots.set(root, { cell: by("cell"), size: by("size"), step: by("step"), head: by("head"), unit: by("unit") });
  }
  return slots.get(root);
}

/** Draw an answer from attention/layer_view.py into the figure. */
export function render(root, data) {
  const at = slotsOf(root);
  for (const el of root.querySelectorAll('[data-bind="focus"]')) setText(el, data.focus.word);
  setText(bound(root, "focus-index"), String(data.focus.index));
  const words = bound(root, "words");
  syncList(words, data.sentence.words, () => part(root, "word"), (li, word, k) => fillWord(li.firstElementChild, word, k, data.focus.index));
  for (const head of data.heads) {
    const li = at.head.get(head.name);
    setText(bound(li, "head-said"), head.said);
    setText(bound(li, "writes"), head.writes_text);
    setClass(li, "is-silent", head.silent);
  }
  data.features.forEach((f) => f.cells.forEach((cell, h) => writeNumber(at.cell.get(`h${h}-${f.name}`), cell)));
  data.rows.forEach((r) => r.cells.forEach((cell, s) => writeNumber(at.cell.get(`${data.steps[s].key}-${r.name}`), cell)));
  for (const step of data.steps) { // a part switched off retitles its steps ("no residual: …")
    const th = at.step.get(step.key);
    setClass(th, "is-changed", step.changed && Boolean(data.changed));
    setText(th.querySelector(".step-title"), step.title);
    setAttr(th, "data-label", t("layer.step-label", { n: step.n, title: step.title }));
  }
  for (const size of data.sizes) writeNumber(at.size.get(size.key), size);
  for (const unit of data.units) setText(bound(at.unit.get(unit.name), "fired"), unit.fired_text);
  const changed = bound(root, "changed");
  setText(changed, data.changed);
  setHidden(changed, !data.changed);
  setText(bound(root, "said"), data.said);
}

/** Keep the controls in step with the state drawn (a link or a reset may set them). */
function syncControls(root, data) {
  const form = $(root, ".layer-controls");
  const sentence = form.elements.sentence;
  if (document.activeElement !== sentence) sentence.value = data.sentence.text;
  setText(bound(form, "sentence-note"), data.sentence.note);
  if (document.activeElement !== form.elements.temperature) form.elements.temperature.value = data.temperature.text;
  for (const box of form.querySelectorAll('[name="part"]')) box.checked = !data.state.without.includes(box.value);
  form.elements.silent.value = data.state.silent || "";
}

function renderErrors(root, problems) {
  for (const selector of Object.values(MESSAGE_SLOTS)) setText($(root, selector), "");
  for (const input of root.querySelectorAll(".layer-controls [name]")) dropAttrs(input, "aria-invalid");
  const others = [];
  for (const { field, message } of problems) {
    const slot = MESSAGE_SLOTS[field] && $(root, MESSAGE_SLOTS[field]);
    if (slot) setText(slot, message);
    else others.push(message);
    const input = $(root, `.layer-controls [name="${field}"]`);
    if (input) setAttr(input, "aria-invalid", "true");
  }
  setText($(root, ".state-notice"), others.join(" "));
}

/** A number's working: selecting a cell (click, tap, or the arrow keys inside a table) shows it. */
function wireCells(root) {
  const how = bound(root, "how");
  let chosen = null; // the data-cell shown, kept across answers
  const show = (td) => {
    for (const other of root.querySelectorAll("td.is-chosen")) setClass(other, "is-chosen", false);
    chosen = td.dataset.cell;
    setClass(td, "is-chosen", true);
    const column = td.closest("table").tHead.rows[0].cells[td.cellIndex].dataset.label;
    setText(how, `${td.closest("tr").cells[0].firstChild.textContent.trim()}, ${column}: ${td.dataset.how}`);
    setHidden(how, false);
  };
  for (const table of root.querySelectorAll(".layer-table")) {
    const cells = [...table.querySelectorAll("td[data-cell]")];
    cells.forEach((td, k) => setAttr(td, "tabindex", k === 0 ? "0" : "-1"));
    table.addEventListener("click", (event) => {
      const td = event.target.closest("td[data-cell]");
      if (td) { td.focus(); show(td); }
    });
    table.addEventListener("focusin", (event) => {
      const td = event.target.closest("td[data-cell]");
      if (!td) return;
      for (const other of cells) setAttr(other, "tabindex", other === td ? "0" : "-1");
      show(td);
    });
    table.addEventListener("keydown", (event) => {
      const td = event.target.closest("td[data-cell]");
      const move = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] }[event.key];
      if (!td || !move) return;
      const rows = [...table.tBodies[0].rows];
      const r = rows.indexOf(td.parentElement) + move[0];
      const c = td.cellIndex + move[1];
      const next = rows[r]?.cells[c];
      if (next?.dataset.cell) { event.preventDefault(); next.focus(); }
    });
  }
  return () => {
    const td = chosen && $(root, `[data-cell="${chosen}"]`);
    if (td) show(td);
  };
}

function wireControls(root, store) {
  const form = $(root, ".layer-controls");
  form.hidden = false;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    ask(store, { sentence: form.elements.sentence.value, focus: null });
  });
  form.elements.temperature.addEventListener("change", () => ask(store, { temperature: form.elements.temperature.value }));
  for (const box of form.querySelectorAll('[name="part"]')) {
    box.addEventListener("change", () => ask(store, {
      without: [...form.querySelectorAll('[name="part"]')].filter((b) => !b.checked).map((b) => b.value),
    }));
  }
  form.elements.silent.addEventListener("change", () => ask(store, { silent: form.elements.silent.value || null }));
  const words = bound(root, "words");
  const state = JSON.parse(root.dataset.state);
  [...words.children].forEach((li, k) => { // each word becomes the button that follows it
    const word = li.textContent.trim();
    li.replaceChildren(part(root, "word").firstElementChild);
    fillWord(li.firstElementChild, word, k, state.focus);
  });
  words.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-index]");
    if (button) ask(store, { focus: Number(button.dataset.index) });
  });
}

export function mount(root, store) {
  store.good ??= { state: JSON.parse(root.dataset.state) };
  for (const hint of root.querySelectorAll(".fig-hint")) hint.hidden = false;
  wireControls(root, store);
  const reshow = wireCells(root);
  let drawn = null;
  store.subscribe((state) => {
    if (!state.answer || state.answer === drawn) return;
    const answer = (drawn = state.answer);
    markStale(root, !answer.ok, answer.unavailable ? "runtime" : "input");
    if (!answer.ok) return renderErrors(root, answer.errors);
    store.good = answer.data;
    // a field left invalid that this answer replaces says so, not vanish with the typed text
    // (a word clicked after "the cat sat" put the bench's sentence back without a word)
    renderErrors(root, dropped(root, answer.data, ".layer-controls"));
    render(root, answer.data);
    syncControls(root, answer.data);
    reshow();
    const { focus, ...rest } = answer.data.state; // the other words, one click away
    store.warm(answer.data.sentence.words.map((_, k) => ({ figure: STATE, ...rest, focus: k })).filter((r) => r.focus !== focus));
  });
}
