//# allFunctionsCalledOnLoad
// The bench: every bench figure on a page shares one store, and Python computes each state.
// This module wires the reader's actions to requests; bench-render.js draws the answers.

import {
  announce, fitBox, renderControls, renderDrawing, renderErrors, renderHeads, renderMatrix, renderSliderMoved,
  renderTable,
} from "./bench-render.js";
import { dropped, queryNote, sentenceSent, unused } from "./bench-notes.js";
import { markValve } from "./bench-parts.js";
import { wireWalk } from "./bench-walk.js";
import { $, glide, markStale, part, setAttr, setText } from "./dom.js";
import { watchNear, writeNear } from "./near.js";

/** The live state this widget shows, by its name in the bridge (attention.registry.STATES):
 * the bench's state (attention/figures/bench_state.py), which this module's figures and
 * the trained model's comparison (trained.js) show. page.js opens a link's state with it. */
export const STATE = "bench";

const ARROWS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

/** Send the reader's whole state, changed by `change`, to Python (built when it is sent). */
function ask(store, change) {
  store.change(() => ({ figure: STATE, ...store.good.state }), change);
}

function wireControls(root, store) {
  const form = $(root, ".bench-controls");
  if (!form) return;
  form.hidden = false;
  const sentence = $(form, '[name="sentence"]');
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    // Enter in the T box submits the form too: only a new sentence resets the query and the
    // stopcocks (the typed T is already applied, or its message shown, as it is typed).
    const words = (text) => text.trim().split(/\s+/).join(" ");
    delete sentence.dataset.typed; // used now (or the same as the one in use)
    if (words(sentence.value) === words(store.good.state.sentence)) {
      setText($(root, "#bench-sentence-msg"), "");
      return;
    }
    sentenceSent(store, store.good.state); // the answer says where the query went
    ask(store, { sentence: sentence.value, query: null, shut: [] });
  });
  // A sentence typed but not yet used stays in its box, whatever else the reader does first
  // (renderControls leaves it); the answer's message says it is not used yet.
  sentence.addEventListener("input", () => {
    sentence.dataset.typed = "true";
    fitBox(sentence);
  });
  fitBox(sentence);
  // The hint's link to the words the bench knows opens their folded list as it goes there
  // (far below on a phone; the message for an unknown word sends the reader to it).
  $(form, 'a[href="#bench-lexicon"]')?.addEventListener("click", () => {
    const list = document.getElementById("bench-lexicon");
    if (list) list.open = true;
  });
  const refit = () => fitBox(sentence);
  addEventListener("resize", refit, { passive: true });
  sentence.addEventListener("keydown", (event) => { // Enter uses the sentence; it has no lines
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  form.addEventListener("input", (event) => {
    const input = event.target;
    if (input.name === "head") ask(store, { head: input.value });
    else if (input.type === "range") {
      renderSliderMoved(form); // its T at once; the answer's numbers follow
      ask(store, { slider: input.value });
    }
    else if (input.name === "temperature") ask(store, { temperature: input.value, slider: undefined }); // the typed T wins
  });
  // Reset: the bench as the page first showed it (the state the build wrote into the figure)
  const reset = $(form, ".bench-reset");
  if (reset) {
    const first = JSON.parse(root.dataset.state);
    reset.addEventListener("click", () => {
      delete sentence.dataset.typed;
      sentence.value = first.sentence;
      fitBox(sentence);
      ask(store, { ...first, slider: undefined });
    });
  }
  for (const g of root.querySelectorAll(".valve")) { // the drawing as built: make it operable
    const name = g.getAttribute("aria-label"); // "<label>: <state>", as the build wrote it
    const cut = name.lastIndexOf(": ");
    markValve(g, { label: name.slice(0, cut), state: name.slice(cut + 2),
      open: g.classList.contains("open"), can_turn: !g.classList.contains("dead") });
  }
  const drawing = $(root, ".bench-drawing");
  drawing.addEventListener("click", (event) => toggleValve(store, event));
  drawing.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") toggleValve(store, event);
  });
  return () => removeEventListener("resize", refit); // the page is swapped away
}

function toggleValve(store, event) {
  const valve = event.target.closest(".valve[role=switch]");
  if (!valve) return;
  event.preventDefault();
  const j = Number(valve.dataset.index);
  ask(store, ({ shut }) => ({ shut: shut.includes(j) ? shut.filter((k) => k !== j) : [...shut, j] }));
}

function wireTable(root, store) {
  const tbody = $(root, 'tbody[data-bind="rows"]');
  if (!tbody) return;
  for (const word of tbody.querySelectorAll(".row-word")) { // the word becomes the row's button
    const button = part(root, "row-choice");
    setText(button, word.textContent);
    setAttr(button, "aria-pressed", String(word.closest("tr").classList.contains("is-query")));
    word.replaceWith(button);
  }
  tbody.addEventListener("click", (event) => {
    const tr = event.target.closest("tr[data-index]");
    if (tr) ask(store, { query: Number(tr.dataset.index) });
  });
}

function wireMatrix(root, store) {
  const table = $(root, 'table[data-bind="matrix"]');
  if (!table) return;
  const readout = $(root, '[data-bind="readout"]');
  setAttr(table, "role", "grid");
  table.querySelectorAll("td[data-col]").forEach((td, k) => { td.tabIndex = k === 0 ? 0 : -1; });
  table.addEventListener("click", (event) => {
    const tr = event.target.closest("tbody tr[data-index]");
    if (tr) ask(store, { query: Number(tr.dataset.index) });
  });
  table.addEventListener("focusin", (event) => {
    const td = event.target.closest("td[data-col]");
    if (!td) return;
    for (const cell of table.querySelectorAll('td[tabindex="0"]')) cell.tabIndex = -1;
    td.tabIndex = 0; // the grid's one tab stop follows focus, however it arrived
    const query = td.parentElement.cells[0].querySelector(".row-word").textContent;
    const key = table.tHead.rows[0].cells[td.cellIndex].textContent;
    setText(readout, `query ${query} → key ${key}: ${td.textContent}`);
  });
  table.addEventListener("keydown", (event) => {
    const td = event.target.closest("td[data-col]");
    if (!td) return;
    const row = td.parentElement;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      ask(store, { query: Number(row.dataset.index) });
      return;
    }
    const rows = table.tBodies[0].rows;
    const last = row.cells.length - 1;
    // Home/End: the row's first and last cell (with Ctrl: the grid's); PageUp/PageDown: the
    // column's first and last row, as in a data grid
    const jump = {
      Home: event.ctrlKey ? [0, 1] : [row.sectionRowIndex, 1],
      End: event.ctrlKey ? [rows.length - 1, last] : [row.sectionRowIndex, last],
      PageUp: [0, td.cellIndex], PageDown: [rows.length - 1, td.cellIndex],
    }[event.key];
    const step = ARROWS[event.key];
    if (!step && !jump) return;
    event.preventDefault();
    const target = jump ? rows[jump[0]]?.cells[jump[1]]
      : rows[row.sectionRowIndex + step[0]]?.cells[td.cellIndex + step[1]];
    if (target && target.matches("td[data-col]")) {
      td.tabIndex = -1;
      target.tabIndex = 0;
      target.focus();
    }
  });
}

/** "Show on the bench": switch the head, then bring the drawing into view and focus. */
function wireHeads(root, store) {
  for (const button of root.querySelectorAll(".use-head")) {
    button.hidden = false;
    button.addEventListener("click", () => {
      ask(store, { head: button.dataset.head });
      // the drawing's figure: the one with the head line, if it is not this one
      const line = [...document.querySelectorAll(".bench-head-line")].find((l) => !root.contains(l));
      if (!line) return;
      const bench = line.closest(".figure");
      line.tabIndex = -1;
      const calm = matchMedia("(prefers-reduced-motion: reduce)").matches;
      glide(bench, { block: "start", behavior: calm ? "auto" : "smooth" });
      line.focus({ preventScroll: true });
    });
  }
}

// An answer may leave out the matrix the page holds (attention.delta): fill it in from the
// group's own copy when the answer names that very matrix; false when it cannot be (the
// page must then ask again in full rather than keep numbers of another state).
function complete(store, data) {
  if (data.matrix !== undefined) {
    store.held = { id: data.matrix_id, matrix: data.matrix, masks: data.masks, empty: data.empty };
    store.extras.have = data.matrix_id; // later requests say which matrix is on the page
    return true;
  }
  if (!store.held || store.held.id !== data.matrix_id) return false;
  const { matrix, masks, empty } = store.held;
  Object.assign(data, { matrix, masks, empty });
  return true;
}

/** The states a reader reaches in one click from `data`'s: each other row as the query, the
 * nearest rows first, then each other head. Python computes them while it waits (store.warm),
 * once per state apart from its query: a click on a row of a long sentence is then answered
 * without computing. */
function warmNext(store, data, warmed) {
  const { query, ...rest } = data.state;
  const around = JSON.stringify({ ...rest, extras: store.extras }); // what warm() sends, too
  if (warmed.around === around) return;
  warmed.around = around;
  const n = data.rows.length;
  const rows = [];
  for (let d = 1; d < n; d++) for (const k of [query + d, query - d]) if (k >= 0 && k < n) rows.push(k);
  store.warm([
    ...rows.map((k) => ({ figure: STATE, ...data.state, query: k })),
    ...data.heads_here.filter((h) => h.name !== data.head.name).map((h) => ({ figure: STATE, ...data.state, head: h.name })),
  ]);
}

export function mount(root, store) {
  store.good ??= { state: JSON.parse(root.dataset.state) };
  store.extras ??= {};
  for (const hint of root.querySelectorAll(".fig-hint")) hint.hidden = false;
  const letGo = wireControls(root, store);
  wireTable(root, store);
  wireMatrix(root, store);
  wireHeads(root, store);
  const walked = wireWalk(root);
  watchNear([$(root, ".bench-body"), ...($(root, 'tbody[data-bind="rows"]')?.rows || [])]);
  let drawn = null; // the answer last seen
  let before = null; // the data drawn last
  let without = false; // whether the matrix is shown without the what-if steps
  const warmed = { around: null }; // the request (but its query) whose next clicks Python has computed
  store.subscribe((state) => {
    const asked = Boolean(state.matrixWithout); // the reader's toggle (whatif-matrix.js)
    if (state.answer && state.answer === drawn) { // no new answer: the toggle may have turned
      if (asked !== without && before) renderMatrix(root, before, null, (without = asked));
      return;
    }
    if (!state.answer) return;
    const answer = state.answer;
    drawn = answer;
    const speaks = root === store.roots[0]; // one figure of the group reports and announces
    // the last good state stays drawn, marked as out of date
    markStale(root, !answer.ok, answer.unavailable ? "runtime" : "input");
    const note = queryNote(store, answer); // a new sentence's query, said beside the box
    if (!answer.ok) return speaks && renderErrors(root, answer.errors);
    if (!complete(store, answer.data)) { // ask again in full; the last state stays drawn
      delete store.extras.have;
      if (speaks) store.ask(() => ({ figure: STATE, ...answer.data.state }));
      return;
    }
    const last = before;
    before = answer.data;
    store.good = answer.data;
    if (speaks) renderErrors(root, [...dropped(root, answer.data), ...unused(root, answer.data)], false);
    renderControls(root, answer.data, note);
    const body = $(root, ".bench-body"); // the drawing and the walk: far off screen, drawn later
    if (body) writeNear(body, () => { renderDrawing(root, answer.data); if (walked) walked(); });
    renderTable(root, answer.data);
    renderMatrix(root, answer.data, last, (without = asked));
    renderHeads(root, answer.data);
    if (speaks) announce(root, answer.data);
    if (speaks) warmNext(store, answer.data, warmed);
  });
  return letGo;
}
