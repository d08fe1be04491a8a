//# allFunctionsCalledOnLoad
// The lab: the reader moves the query, blocks keys and sets T; Python recomputes everything.

import { $, dropAttrs, setAttr, setClass, setText, staleWhy } from "../dom.js";

/** The live state this widget shows, by its name in the bridge (attention.protocol.registry.STATES):
 * the lab's state. page.js opens a link's state with it. */
export const STATE = "lab";

const STAGES = ["score", "scaled", "tempered", "shifted", "exp", "weight"];
const MOVES = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down",
  PageUp: "up-big", PageDown: "down-big", Home: "home", End: "end" };
const BIG = { ArrowLeft: "left-big", ArrowRight: "right-big", ArrowUp: "up-big", ArrowDown: "down-big" };
const MESSAGES = { q1: "#lab-q1-msg", q2: "#lab-q2-msg", temperature: "#lab-t-msg", mask: "#lab-mask-msg",
  runtime: "#lab-runtime-msg" }; // runtime: Python is not available here (runtime.js)

/** Draw a successful answer from attention.lab.view into the figure. */
export function render(root, data, focused) {
  for (const row of data.rows) {
    const tr = $(root, `tr[data-key="${row.index}"]`);
    for (const stage of STAGES) setText($(tr, `[data-bind="${stage}"]`), row[stage].text);
    setAttr($(tr, '[data-bind="bar"]'), "width", row.weight.value);
    $(tr, '[data-bind="blocked"]').hidden = row.allowed;
    setClass(tr, "blocked", !row.allowed);
    $(root, `input[name="mask"][value="${row.index}"]`).checked = row.allowed;
  }
  for (const point of data.plot.value_points.entries()) {
    setClass($(root, `.value-point[data-key="${point[0]}"]`), "blocked", !point[1].allowed);
  }
  setAttr($(root, '[data-bind="hull"]'), "points", data.plot.hull);
  const out = data.plot.output;
  setAttr($(root, '[data-bind="output-point"]'), "transform", `translate(${out.x} ${out.y})`);
  const label = $(root, '[data-bind="output-label"]'); // placed by Python clear of the value dots
  for (const [name, value] of [["x", out.label.x], ["y", out.label.y], ["text-anchor", out.label.anchor]]) {
    setAttr(label, name, value);
  }
  setText($(root, '[data-bind="plot-desc"]'), data.plot.summary);
  setText($(root, '[data-bind="output"]'), data.output.text);
  for (const row of data.rows) { // the mix, o = Σ a_j v_j, in numbers
    const tr = $(root, `tr[data-mix="${row.index}"]`);
    setText($(tr, '[data-bind="mix-weight"]'), row.weight.text);
    setText($(tr, '[data-bind="mix-product"]'), row.product.text);
  }
  setText($(root, '[data-bind="mix-output"]'), data.output.text);
  const pad = data.pad;
  setAttr($(root, '[data-bind="pad-point"]'), "transform", `translate(${pad.x} ${pad.y})`);
  setAttr($(root, '[data-bind="pad-arm"]'), "x2", pad.x);
  setAttr($(root, '[data-bind="pad-arm"]'), "y2", pad.y);
  setText($(root, '[data-bind="query"]'), data.query.text);
  $(root, '[data-bind="off-pad"]').hidden = !pad.off_pad;
  setText($(root, '[data-bind="state-query"]'), data.query.text);
  setText($(root, '[data-bind="state-t"]'), data.temperature.text);
  setText($(root, '[data-bind="state-allowed"]'), data.allowed_text);
  const fields = { q1: data.fields[0], q2: data.fields[1], temperature: data.temperature.text };
  for (const [name, text] of Object.entries(fields)) {
    const input = $(root, `input[name="${name}"]`);
    if (input !== focused) input.value = text;
  }
  const slider = $(root, 'input[type="range"]');
  if (slider !== focused) slider.value = data.slider;
  sayT(root, data.temperature.text);
  setText($(root, '[data-bind="said"]'), data.said); // one polite sentence per change
}

// The slider's value text, and its name's end (Chromium's DevTools tree shows no valuetext)
function sayT(root, text) {
  setAttr($(root, 'input[type="range"]'), "aria-valuetext", `T = ${text}`);
  setText($(root, '[data-bind="t-now"]'), `T = ${text}`);
}

/** The T slider moved: its value text says its new step's T at once, from the build's table of
 * Python's T per step (data-t-texts); a screen reader reads it before the answer comes. */
function sliderMoved(root, slider) {
  const text = JSON.parse(slider.dataset.tTexts || "[]")[Number(slider.value)];
  if (text !== undefined) sayT(root, text);
}

/** The control a problem belongs to: the field, the group of switches, or the pad. */
function controlsFor(root, field) {
  if (field === "mask") return [$(root, ".lab-mask"), ...root.querySelectorAll('input[name="mask"]')];
  if (field === "pad" || field === "query") return [$(root, ".pad")];
  const input = $(root, `input[name="${field}"]`);
  return input ? [input] : [];
}

/**
 * Show each problem next to its control, and mark the numbers still on screen as stale:
 * they no longer match the inputs, so they are greyed, the weights and output are hidden,
 * and a sentence says so.
 */
export function renderErrors(root, problems) {
  for (const selector of Object.values(MESSAGES)) setText($(root, selector), "");
  for (const element of root.querySelectorAll("[aria-invalid]")) dropAttrs(element, "aria-invalid");
  for (const element of root.querySelectorAll(".invalid")) element.classList.remove("invalid");
  for (const { field, message } of problems) {
    setText($(root, MESSAGES[field] || ".state-notice"), message); // no field: the notice
    for (const control of controlsFor(root, field)) {
      setAttr(control, "aria-invalid", "true");
      if (control.matches("fieldset, svg")) control.classList.add("invalid");
    }
  }
  const stale = problems.length > 0;
  setClass(root, "is-stale", stale);
  $(root, '[data-bind="stale"]').hidden = !stale;
  staleWhy($(root, '[data-bind="stale"]'), problems.some((p) => p.field === "runtime") ? "runtime" : "input");
  $(root, '[data-bind="state-stale"]').hidden = !stale; // the state line at the top says it too
  $(root, ".lab-results").toggleAttribute("aria-busy", stale);
  if (stale) setText($(root, '[data-bind="said"]'), "");
}

/** The pad's keyboard: a small step, Shift for a big one, Page Up/Down, Home and End. */
export function padMove(event) {
  return (event.shiftKey && BIG[event.key]) || MOVES[event.key] || null;
}

export function mount(root, store) {
  const controls = $(root, ".lab-controls");
  controls.hidden = false;
  for (const element of document.querySelectorAll("[data-live-only]")) element.hidden = false; // prose about the controls
  const svg = $(root, ".pad");
  const plane = $(svg, "g");

  const ask = (extra = {}) => store.ask(() => ({ // read the fields when the request is sent
    figure: STATE,
    query: [$(root, 'input[name="q1"]').value, $(root, 'input[name="q2"]').value],
    mask: [...root.querySelectorAll('input[name="mask"]')].map((box) => box.checked),
    temperature: $(root, 'input[name="temperature"]').value,
    ...extra,
  }));

  controls.addEventListener("input", (event) => {
    if (event.target.type === "range") {
      sliderMoved(root, event.target);
      ask({ slider: event.target.value });
    }
    else ask();
  });

  // Reset: every field back to the value the build wrote into it (the lab as first shown)
  $(root, ".lab-reset")?.addEventListener("click", () => {
    for (const input of controls.querySelectorAll("input")) {
      if (input.type === "checkbox") input.checked = input.defaultChecked;
      else input.value = input.defaultValue;
    }
    ask();
  });

  // The pad: the browser maps the pointer into the plane's own coordinates; Python does the rest.
  const fromPointer = (event) => {
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(
      plane.getScreenCTM().inverse());
    ask({ pad: [point.x, point.y] });
  };
  svg.addEventListener("pointerdown", (event) => {
    svg.setPointerCapture(event.pointerId);
    svg.focus();
    fromPointer(event);
  });
  svg.addEventListener("pointermove", (event) => {
    if (svg.hasPointerCapture(event.pointerId)) fromPointer(event);
  });
  svg.addEventListener("keydown", (event) => {
    const move = padMove(event);
    if (!move) return;
    event.preventDefault();
    ask({ move });
  });

  // The prediction before the lab and the what-if panel in it ask the lab to show a query.
  store.showQuery = (fields) => {
    $(root, 'input[name="q1"]').value = fields[0];
    $(root, 'input[name="q2"]').value = fields[1];
    ask();
  };

  let drawn = null;
  store.subscribe((state) => {
    if (!state.answer || state.answer === drawn) return;
    drawn = state.answer;
    if (state.answer.ok) {
      renderErrors(root, []);
      render(root, state.answer.data, document.activeElement);
    } else {
      renderErrors(root, state.answer.errors);
    }
  });
}
