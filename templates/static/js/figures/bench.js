//# allFunctionsCalledOnLoad
// The bench's state, which its figures share (each its own module, and trained.js beside
// them): every bench figure on a page mounts on one store, and Python computes each state.
// This module sends the reader's changes (ask), keeps the matrix the page holds (complete),
// has Python compute the next clicks' states while it waits (warmNext), and, for the group's
// first figure, says what went wrong and announces each answer; each figure draws its part.

import { dropped, queryNote, unused } from "./bench-notes.js";
import { $, bound, dropAttrs, markStale, setAttr, setText } from "../dom.js";

/** The live state the bench's figures show, by its name in the bridge
 * (attention.protocol.registry.STATES): attention/figures/bench_state.py. page.js opens a link's state
 * with it. */
export const STATE = "bench";

/** Send the reader's whole state, changed by `change`, to Python (built when it is sent). */
export function ask(store, change) {
  store.change(() => ({ figure: STATE, ...store.good.state }), change);
}

// An answer may leave out the matrix the page holds (attention.protocol.delta): fill it in from the
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

/** Say the new result in one sentence, in the group's one live region. */
export function announce(root, data) {
  const region = bound(root, "announce");
  if (region) setText(region, data.announce);
}

const MESSAGE_SLOTS = { sentence: "#bench-sentence-msg", temperature: "#bench-t-msg", shut: "#bench-shut-msg",
  runtime: "#bench-runtime-msg" };

/** Show each problem's message by its field; `invalid`: the fields' values are still wrong. */
export function renderErrors(root, problems, invalid = true) {
  for (const selector of Object.values(MESSAGE_SLOTS)) {
    const slot = $(root, selector);
    if (slot) setText(slot, "");
  }
  const form = $(root, ".bench-controls");
  if (form && invalid && problems.length) { // the notes were about an input before this one
    setText(bound(form, "sentence-note"), "");
    setText(bound(form, "query-note"), "");
  }
  for (const input of root.querySelectorAll(".bench-controls [name]")) dropAttrs(input, "aria-invalid");
  for (const { field, message } of problems) {
    const slot = $(root, MESSAGE_SLOTS[field] || ".state-notice") || $(root, ".state-notice");
    if (slot) setText(slot, message); // a field this figure lacks: its own notice line
    const input = $(root, `.bench-controls [name="${field}"]`);
    if (input && invalid) setAttr(input, "aria-invalid", "true");
  }
}

/**
 * Mount one bench figure on the group's store: `figure.wire()` wires its controls (and may
 * return how to let go of the page); `figure.draw(data, { note, without })` draws each good
 * answer; `figure.toggled(without)`, if it has one, redraws when the reader turns the what-if
 * matrix on or off without a new answer.
 */
export function mountBench(root, store, figure) {
  store.good ??= { state: JSON.parse(root.dataset.state) };
  store.extras ??= {};
  for (const hint of root.querySelectorAll(".fig-hint")) hint.hidden = false;
  const letGo = figure.wire();
  let drawn = null; // the answer last seen
  let without = false; // whether the matrix is shown without the what-if steps
  const warmed = { around: null }; // the request (but its query) whose next clicks Python has computed
  store.subscribe((state) => {
    const asked = Boolean(state.matrixWithout); // the reader's toggle (whatif-matrix.js)
    if (state.answer && state.answer === drawn) { // no new answer: the toggle may have turned
      if (asked !== without) figure.toggled?.((without = asked));
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
    store.good = answer.data;
    if (speaks) renderErrors(root, [...dropped(root, answer.data), ...unused(root, answer.data)], false);
    figure.draw(answer.data, { note, without: (without = asked) });
    if (speaks) announce(root, answer.data);
    if (speaks) warmNext(store, answer.data, warmed);
  });
  return letGo;
}
