//# allFunctionsCalledOnLoad
// FIG-004, the bench's drawing, with its controls (the sentence, the head, T, the stopcocks)
// and the guided walk under it: the reader's actions become changes of the bench's state
// (bench.js asks Python), and each answer's texts, classes and SVG attributes are placed as
// Python returned them. Repeated parts are clones of the <template>s the build wrote
// (bench-parts.js fills them); only what changed is written, and no layout is read.

import { ask, mountBench, STATE } from "./bench.js";
import { sentenceSent } from "./bench-notes.js";
import { fillDial, fillManifold, fillStratum, fillStratumLabel, fillValve, markValve } from "./bench-parts.js";
import { wireWalk } from "./bench-walk.js";
import { renderWhatifDrawing } from "./bench-whatif.js";
import { $, bound, html, part, setAttr, setText, syncList } from "../dom.js";
import { watchNear, writeNear } from "../near.js";

export { STATE };

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
    else if (input.name === "query") ask(store, { query: Number(input.value) }); // (an embed's list)
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

/** Draw the bench's drawing for one answer. */
function renderDrawing(root, data) {
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
function renderControls(root, data, queryNote = "") {
  const form = $(root, ".bench-controls");
  if (!form) return;
  const focused = document.activeElement;
  const sentence = $(form, '[name="sentence"]');
  // (a sentence typed and not used yet stays: bench.js says so, bench-notes.js)
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
  const query = $(form, 'select[name="query"]'); // an embed's: the sentence's words, by position
  if (query) {
    syncList(query, data.rows, () => html("option"), (option, row) => {
      setAttr(option, "value", row.index);
      setText(option, `${row.index}: ${row.word}`);
    });
    if (query !== focused && query.value !== String(data.query.index)) query.value = String(data.query.index);
  }
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
function renderSliderMoved(form) {
  const slider = $(form, 'input[type="range"]');
  const text = JSON.parse(slider.dataset.tTexts || "[]")[Number(slider.value)];
  if (text !== undefined) sayT(form, text);
}

export function mount(root, store) {
  let walked = null; // what the walk redraws with each answer (bench-walk.js)
  return mountBench(root, store, {
    wire() {
      const letGo = wireControls(root, store);
      walked = wireWalk(root);
      watchNear([$(root, ".bench-body")]);
      return letGo;
    },
    draw(data, { note }) {
      renderControls(root, data, note);
      const body = $(root, ".bench-body"); // the drawing and the walk: far off screen, drawn later
      if (body) writeNear(body, () => { renderDrawing(root, data); if (walked) walked(); });
    },
  });
}
