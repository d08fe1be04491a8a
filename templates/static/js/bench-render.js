//# allFunctionsCalledOnLoad
// Pure render functions for the bench's figures: they place the texts, classes and SVG
// attributes that Python returned. Repeated parts are clones of the <template>s the build
// wrote (bench-parts.js fills them); only what changed is written, and no layout is read.

import { $, dropAttrs, part, setAttr, setClass, setText, syncList } from "./dom.js";
import {
  fillCell, fillColHead, fillDial, fillManifold, fillRowHead, fillRowNumbers, fillStratum,
  fillStratumLabel, fillValve, markRow,
} from "./bench-parts.js";
import { fillNear } from "./near.js";
import { renderWhatifDrawing } from "./bench-whatif.js";

const bound = (root, name) => root.querySelector(`[data-bind="${name}"]`);

/** Draw the bench's drawing for one answer. */
export function renderDrawing(root, data) {
  const d = data.drawing;
  const drawing = $(root, ".bench-drawing");
  if (!drawing) return;
  setAttr(drawing, "viewBox", d.viewbox);
  setText(bound(drawing, "summary"), data.summary);
  [...bound(drawing, "callouts").children].forEach((g, k) => setAttr(g, "transform", `translate(20 ${d.callouts[k].y})`));
  setAttr(bound(drawing, "carriage"), "transform", `translate(${d.carriage.x} ${d.carriage.y})`);
  setAttr(bound(drawing, "carriage"), "aria-label", d.carriage.label);
  setText(bound(drawing, "carriage-word"), d.carriage.word);
  const strip = data.query.strip;
  for (const squares of root.querySelectorAll(".carriage, .carriage-strip")) { // the drawing's and step 1's
    squares.querySelectorAll(".cell").forEach((cell, c) => setAttr(cell, "class", `cell ${strip.signs[c]} l${strip.levels[c]}`));
  }
  syncList(bound(drawing, "dials"), d.dials, () => part(root, "dial"), fillDial);
  setAttr(bound(drawing, "legend"), "y", d.legend.y);
  const [plate, plateText] = bound(drawing, "plate-box").children;
  setAttr(plate, "y", d.plate_box.y);
  setAttr(plateText, "y", d.plate_box.text_y);
  setText(plateText, d.plate);
  const [tank, fluid, tankText] = bound(drawing, "tank").children;
  setAttr(tank, "y", d.tank.y);
  setAttr(fluid, "y", d.tank.fluid_y);
  setAttr(tankText, "y", d.tank.text_y);
  const pipe = bound(drawing, "pipe");
  setAttr(pipe, "y1", d.pipe[0]);
  setAttr(pipe, "y2", d.pipe[1]);
  syncList(bound(drawing, "manifolds"), d.manifolds, () => part(root, "manifold"), fillManifold);
  syncList(bound(drawing, "valves"), d.valves, () => part(root, "valve"), (g, v) => fillValve(g, v, true));
  setAttr(bound(drawing, "tray"), "y", d.tray_y);
  syncList(bound(drawing, "strata"), d.strata, () => part(root, "stratum"), fillStratum);
  syncList(bound(drawing, "strata-labels"), d.strata, () => part(root, "stratum-label"), fillStratumLabel);
  renderWhatifDrawing(root, d); // its what-if layer: this is the drawing's one writer
  renderWalk(root, data);
}

/** The six steps' numbers and the tray's output vector, under the drawing (bench-walk.js
 * steps through them). */
function renderWalk(root, data) {
  root.querySelectorAll("[data-walk-numbers]").forEach((el, k) => setText(el, data.walk[k].numbers));
  root.querySelectorAll(".bench-captions > li").forEach((li, k) => {
    setAttr(li, "data-where", data.walk[k].where);
    setAttr(li, "data-said", data.walk[k].said);
  });
  root.querySelectorAll("[data-output]").forEach((el, k) => setText(el, data.output[k].text));
}

/** Fill the working table for one answer: every row's marks now, the numbers of
 * rows far off screen once the page is idle or they come near (near.js). */
export function renderTable(root, data) {
  const tbody = $(root, 'tbody[data-bind="rows"]');
  if (!tbody) return;
  syncList(tbody, data.rows, () => part(root, "row")); // as many rows as words
  fillNear(tbody, data.rows, fillRowNumbers, markRow);
  setText(bound(root, "exp-total"), data.total.exp.text);
  setText(bound(root, "weight-total"), data.total.weight.text);
  for (const el of root.querySelectorAll('[data-bind="query-word"]')) setText(el, data.query.word);
}

const sameMatrix = (a, b) => ["sentence", "head", "temperature", "shut"]
  .every((k) => JSON.stringify(a.state[k]) === JSON.stringify(b.state[k]));

/** Fill the attention matrix for one answer; `before` is the answer drawn last. */
export function renderMatrix(root, data, before, without = false) {
  const table = $(root, 'table[data-bind="matrix"]');
  if (!table) return;
  // without: the reader asked to see the matrix without the what-if panel's steps (its rows
  // are in the same answer, data.whatif.matrix, computed by Python); this is the table's one writer
  const cf = without && data.whatif ? data.whatif.matrix : null;
  const wasWithout = table.classList.contains("whatif-shown");
  const words = data.sentence.names; // a repeated word with its position
  const body = table.tBodies[0];
  const head = table.tHead.rows[0];
  const resized = body.rows.length !== words.length;
  if (resized) {
    while (head.children.length > words.length + 1) head.lastElementChild.remove(); // after the corner
    while (head.children.length < words.length + 1) head.append(part(root, "col-head"));
    syncList(body, words, () => part(root, "matrix-row"), (tr, _, r) => {
      setAttr(tr, "data-index", r);
      while (tr.cells.length > words.length + 1) tr.lastElementChild.remove();
      while (tr.cells.length < words.length + 1) tr.append(Object.assign(part(root, "cell"), { tabIndex: -1 }));
    });
  }
  setClass(table, "compact", words.length > 12);
  [...head.children].slice(1).forEach((th, c) => fillColHead(th, words[c]));
  for (const tr of body.rows) {
    const r = Number(tr.dataset.index);
    const current = r === data.query.index;
    setAttr(tr, "class", [current && "is-query", data.empty[r] && "empty"].filter(Boolean).join(" "));
    if (current) setAttr(tr, "aria-current", "true");
    else dropAttrs(tr, "aria-current");
  }
  for (const el of root.querySelectorAll('[data-bind="head"]')) setText(el, data.head.name);
  if (!resized && before && sameMatrix(before, data) && !cf && !wasWithout) return; // only the query moved
  data.matrix.forEach((real, r) => {
    const cells = body.rows[r].cells;
    fillRowHead(cells[0], words[r], data.rows[r], data.empty[r]);
    if (cf) setText(cells[0].children[2], cf[r].note);
    (cf ? cf[r].cells : real).forEach((value, c) => {
      fillCell(cells[c + 1], value, cf ? cf[r].masks[c] : data.masks[r][c], c);
    });
  });
  setClass(table, "whatif-shown", Boolean(cf));
}

// The sentence box is as tall as its text: the stylesheet's field-sizing makes it so where the
// engine has it; elsewhere (WebKit) fitBox does, whenever its text or its width changes.
const FIELD_SIZING = globalThis.CSS?.supports?.("field-sizing", "content");

/** Make a text box as tall as its text, where field-sizing cannot (a no-op where it can). */
export function fitBox(box) {
  if (FIELD_SIZING || !box) return;
  box.style.height = "auto";
  const { borderTopWidth, borderBottomWidth } = getComputedStyle(box);
  box.style.height = `${box.scrollHeight + parseFloat(borderTopWidth) + parseFloat(borderBottomWidth)}px`;
}

/** The controls for one answer; `queryNote`: where a new sentence put the query (bench-notes.js). */
export function renderControls(root, data, queryNote = "") {
  const form = $(root, ".bench-controls");
  if (!form) return;
  const focused = document.activeElement;
  const sentence = $(form, '[name="sentence"]');
  // (a sentence typed and not used yet stays: bench.js says so)
  if (sentence !== focused && !sentence.dataset.typed && sentence.value !== data.sentence.text) {
    sentence.value = data.sentence.text;
    fitBox(sentence);
  }
  setText(bound(form, "sentence-note"), data.sentence.note);
  setText(bound(form, "query-note"), queryNote);
  const radio = $(form, `input[name="head"][value="${data.head.name}"]`);
  if (!radio.checked) radio.checked = true;
  const t = $(form, 'input[name="temperature"]');
  if (t !== focused && t.value !== data.temperature.text) t.value = data.temperature.text;
  const slider = $(form, 'input[type="range"]');
  if (slider !== focused && slider.value !== String(data.slider)) slider.value = data.slider;
  sayT(form, data.temperature.text);
  setText(bound(root, "behaviour"), data.head.behaviour);
  const here = bound(root, "head-here");
  if (here) setText(here, data.head.here);
  for (const el of root.querySelectorAll('[data-bind="head"]')) setText(el, data.head.name);
  for (const el of root.querySelectorAll('[data-bind="query-word"]')) setText(el, data.query.word);
}

// The slider's value text, and its name's end (Chromium's DevTools tree shows no valuetext)
function sayT(form, text) {
  setAttr($(form, 'input[type="range"]'), "aria-valuetext", `T = ${text}`);
  setText(bound(form, "t-now"), `T = ${text}`);
}

/** The T slider moved: its value text says the T of its new step at once, from the build's
 * table of Python's T for every step (data-t-texts), not an answer later, when a screen reader
 * has already read the T of the step before. */
export function renderSliderMoved(form) {
  const slider = $(form, 'input[type="range"]');
  const text = JSON.parse(slider.dataset.tTexts || "[]")[Number(slider.value)];
  if (text !== undefined) sayT(form, text);
}

export function renderHeads(root, data) {
  for (const card of root.querySelectorAll(".head-card")) {
    const current = card.dataset.head === data.head.name;
    setClass(card, "is-current", current);
    setAttr($(card, ".use-head"), "aria-pressed", String(current));
    const here = data.heads_here.find((h) => h.name === card.dataset.head);
    const slot = $(card, "[data-here]");
    if (here && slot) setText(slot, here.here);
  }
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
