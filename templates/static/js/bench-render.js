// Pure render functions for the bench's figures: they place the texts, classes and SVG
// attributes that Python returned, and create rows or dials when the sentence changes.

import { html, setAttr, setText, svg } from "./dom.js";

const $ = (root, selector) => root.querySelector(selector);

function dialNode(dial, d) {
  return svg("g", { class: `dial ${dial.state} c${dial.colour}${dial.pinned ? " pinned" : ""}`,
    "data-index": dial.index, transform: `translate(${dial.x} 130)` }, [
    svg("path", { class: "dial-face", d: d.face }),
    svg("line", { class: "needle", x1: 0, y1: 0, x2: 0, y2: -d.needle, transform: `rotate(${dial.angle})` }),
    svg("circle", { class: "hub", r: 2.5 }),
    ...(d.labels ? [svg("text", { class: "dial-word", y: 16 }, dial.word)] : []),
  ]);
}

function valveNode(valve, d) {
  return svg("g", { class: "valve", "data-index": valve.index, transform: `translate(${valve.x} 345)` }, [
    svg("line", { class: "pipe", x1: 0, y1: -27, x2: 0, y2: -9 }),
    svg("path", { class: "stream", d: valve.stream }),
    svg("circle", { class: "body", r: d.valve_radius }),
    svg("line", { class: "handle", x1: -7, y1: 0, x2: 7, y2: 0 }),
  ]);
}

/** Make a stopcock a button if the reader may turn it (words after the query may not). */
export function markValve(g, { index, word, open, can_turn: canTurn }) {
  if (!canTurn) {
    for (const name of ["tabindex", "role", "aria-pressed", "aria-label"]) g.removeAttribute(name);
    return;
  }
  setAttr(g, "tabindex", "0");
  setAttr(g, "role", "button");
  setAttr(g, "aria-pressed", String(!open)); // pressed: shut
  setAttr(g, "aria-label", `Shut the stopcock of ${word} (word ${index})`);
}

/** Draw the bench (FIG-004) for one answer; `rebuild` when the sentence changed. */
export function renderDrawing(root, data, rebuild) {
  const d = data.drawing;
  const drawing = $(root, ".bench-drawing");
  if (!drawing) return;
  setText($(drawing, '[data-bind="summary"]'), data.summary);
  setAttr($(drawing, '[data-bind="carriage"]'), "transform", `translate(${d.carriage.x} 40)`);
  setText($(drawing, '[data-bind="carriage-word"]'), d.carriage.word);
  const strip = data.query.strip;
  drawing.querySelectorAll(".carriage .cell").forEach((cell, c) => {
    setAttr(cell, "class", `cell ${strip.signs[c]} l${strip.levels[c]}`);
  });
  const dials = $(drawing, '[data-bind="dials"]');
  const valves = $(drawing, '[data-bind="valves"]');
  if (rebuild || dials.children.length !== d.dials.length) {
    dials.replaceChildren(...d.dials.map((dial) => dialNode(dial, d)));
    valves.replaceChildren(...d.valves.map((valve) => valveNode(valve, d)));
  }
  d.dials.forEach((dial, j) => {
    const g = dials.children[j];
    setAttr(g, "class", `dial ${dial.state} c${dial.colour}${dial.pinned ? " pinned" : ""}`);
    setAttr($(g, ".needle"), "transform", `rotate(${dial.angle})`);
  });
  d.valves.forEach((valve, j) => {
    const g = valves.children[j];
    setAttr(g, "class", `valve${valve.open ? " open" : " shut"}${valve.can_turn ? "" : " dead"} c${valve.colour}`);
    setAttr($(g, ".stream"), "stroke-width", valve.flow);
    markValve(g, valve);
  });
  const manifold = $(drawing, '[data-bind="manifold"]');
  setAttr(manifold, "x1", d.manifold[0]);
  setAttr(manifold, "x2", d.manifold[1]);
  setText($(drawing, '[data-bind="plate"]'), d.plate);
  const strata = $(drawing, '[data-bind="strata"]');
  if (rebuild || strata.children.length !== d.strata.length) {
    strata.replaceChildren(...d.strata.map((s) => svg("rect", { "data-index": s.index, x: 340, width: 120 })));
  }
  d.strata.forEach((s, j) => {
    const rect = strata.children[j];
    setAttr(rect, "class", `stratum c${s.colour}`);
    setAttr(rect, "y", s.y);
    setAttr(rect, "height", s.height);
  });
  $(drawing, '[data-bind="strata-labels"]').replaceChildren(...d.strata.filter((s) => s.label)
    .map((s) => svg("text", { x: 472, y: s.label_y }, s.text)));
}

function rowNode(r) {
  return html("tr", { "data-index": r.index }, [
    html("td", { class: "num" }, String(r.index)),
    html("th", { scope: "row" }, [html("span", { class: `swatch c${r.colour}`, "aria-hidden": "true" }),
      html("button", { type: "button", class: "row-choice" }, r.word)]),
    html("td", {}, [html("span", { class: "strip", role: "img" },
      r.strip.signs.map(() => html("span", { class: "cell" })))]),
    ...["dot", "scaled", "tempered", "exp"].map(() => html("td", { class: "num" })),
    html("td", { class: "weight" }, [
      svg("svg", { class: "bar", viewBox: "0 0 1 1", preserveAspectRatio: "none", "aria-hidden": "true", focusable: "false" },
        [svg("rect", { class: "bar-track", width: 1, height: 1 }), svg("rect", { class: "bar-fill", height: 1 })]),
      html("span", { class: "num" }), html("span", { class: "row-note visually-hidden" })]),
  ]);
}

/** Fill the working table (FIG-005) for one answer. */
export function renderTable(root, data, rebuild) {
  const tbody = $(root, 'tbody[data-bind="rows"]');
  if (!tbody) return;
  if (rebuild || tbody.children.length !== data.rows.length) tbody.replaceChildren(...data.rows.map(rowNode));
  data.rows.forEach((r, j) => {
    const tr = tbody.children[j];
    setAttr(tr, "class", [r.is_query && "is-query", r.future && "future", r.shut && "shut"].filter(Boolean).join(" "));
    const cells = tr.children;
    ["dot", "scaled", "tempered", "exp"].forEach((key, k) => { setText(cells[3 + k], r[key].text); });
    setAttr($(cells[7], ".bar-fill"), "width", r.weight.value);
    setText($(cells[7], ".num"), r.weight.text);
    setText($(cells[7], ".row-note"), r.future ? " (comes later: masked)" : r.shut ? " (stopcock shut)" : "");
    const strip = $(cells[2], ".strip");
    setAttr(strip, "aria-label", "terms " + r.strip.terms);
    r.strip.signs.forEach((sign, k) => setAttr(strip.children[k], "class", `cell ${sign} l${r.strip.levels[k]}`));
    setAttr($(tr, "button"), "aria-pressed", String(r.is_query));
  });
  for (const el of root.querySelectorAll('[data-bind="query-word"]')) setText(el, data.query.word);
}

const sameMatrix = (a, b) => ["sentence", "head", "temperature", "shut"]
  .every((k) => JSON.stringify(a.state[k]) === JSON.stringify(b.state[k]));

/** Fill the attention matrix (FIG-006) for one answer; `before` is the answer drawn last. */
export function renderMatrix(root, data, before) {
  const table = $(root, 'table[data-bind="matrix"]');
  if (!table) return;
  const words = data.sentence.words;
  const body = table.tBodies[0];
  if (!before || before.state.sentence !== data.state.sentence || body.rows.length !== words.length) {
    table.tHead.rows[0].replaceChildren(html("td"), ...words.map((w) =>
      html("th", { scope: "col", class: "col-word" }, [html("span", {}, w)])));
    body.replaceChildren(...words.map((w, r) => html("tr", { "data-index": r }, [
      html("th", { scope: "row" }, [html("span", { class: `swatch c${data.rows[r].colour}`, "aria-hidden": "true" }), w]),
      ...words.map((_, c) => html("td", { "data-col": c, tabindex: r + c === 0 ? "0" : "-1" })),
    ])));
    before = null;
  }
  table.classList.toggle("compact", words.length > 12);
  for (const tr of body.rows) {
    const current = Number(tr.dataset.index) === data.query.index;
    tr.classList.toggle("is-query", current);
    if (current) tr.setAttribute("aria-current", "true");
    else tr.removeAttribute("aria-current");
  }
  if (before && sameMatrix(before, data)) return; // only the query moved: the weights are the same
  data.matrix.forEach((row, r) => {
    const cells = body.rows[r].cells;
    row.forEach((cell, c) => {
      const td = cells[c + 1];
      setAttr(td, "class", cell ? `m l${cell[1]}` : "m masked");
      if (cell) setText(td, cell[0]);
      else if (td.textContent !== "masked") td.replaceChildren(html("span", { class: "visually-hidden" }, "masked"));
    });
  });
  for (const el of root.querySelectorAll('[data-bind="head"]')) setText(el, data.head.name);
}

function renderControls(root, data) {
  const form = $(root, ".bench-controls");
  if (!form) return;
  const focused = document.activeElement;
  const sentence = $(form, 'input[name="sentence"]');
  if (sentence !== focused) sentence.value = data.sentence.text;
  $(form, `input[name="head"][value="${data.head.name}"]`).checked = true;
  const t = $(form, 'input[name="temperature"]');
  if (t !== focused) t.value = data.temperature.text;
  const slider = $(form, 'input[type="range"]');
  if (slider !== focused) slider.value = data.slider;
  setAttr(slider, "aria-valuetext", `T = ${data.temperature.text}`);
  setText($(root, '[data-bind="behaviour"]'), data.head.behaviour);
  for (const el of root.querySelectorAll('[data-bind="head"]')) setText(el, data.head.name);
  for (const el of root.querySelectorAll('[data-bind="query-word"]')) setText(el, data.query.word);
}

function renderHeads(root, data) {
  for (const card of root.querySelectorAll(".head-card")) {
    const current = card.dataset.head === data.head.name;
    card.classList.toggle("is-current", current);
    setAttr($(card, ".use-head"), "aria-pressed", String(current));
  }
}

const MESSAGE_SLOTS = { sentence: "#bench-sentence-msg", temperature: "#bench-t-msg", shut: "#bench-shut-msg" };

function renderErrors(root, problems) {
  for (const selector of Object.values(MESSAGE_SLOTS)) {
    const slot = $(root, selector);
    if (slot) setText(slot, "");
  }
  for (const input of root.querySelectorAll(".bench-controls input")) input.removeAttribute("aria-invalid");
  for (const { field, message } of problems) {
    const slot = $(root, MESSAGE_SLOTS[field] || ".state-notice") || $(root, ".state-notice");
    if (slot) setText(slot, message); // a field this figure lacks: its own notice line
    const input = $(root, `.bench-controls input[name="${field}"]`);
    if (input) setAttr(input, "aria-invalid", "true");
  }
}

export { renderControls, renderHeads, renderErrors };
