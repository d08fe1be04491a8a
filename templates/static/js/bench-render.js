// Pure render functions for the bench's figures: they place the texts, classes and SVG
// attributes that Python returned, and create rows or dials when the sentence changes.

import { svg, html } from "./dom.js";

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
  g.setAttribute("tabindex", "0");
  g.setAttribute("role", "button");
  g.setAttribute("aria-pressed", String(!open));
  g.setAttribute("aria-label", `Stopcock for ${word} (word ${index}): ${open ? "open" : "shut"}`);
}

/** Draw the bench (FIG-004) for one answer. */
export function renderDrawing(root, data) {
  const d = data.drawing;
  const drawing = $(root, ".bench-drawing");
  if (!drawing) return;
  $(drawing, '[data-bind="summary"]').textContent = data.summary;
  $(drawing, '[data-bind="carriage"]').setAttribute("transform", `translate(${d.carriage.x} 40)`);
  $(drawing, '[data-bind="carriage-word"]').textContent = d.carriage.word;
  drawing.querySelectorAll(".carriage .cell").forEach((cell, c) => {
    const s = data.query.strip[c];
    cell.setAttribute("class", `cell ${s.sign} l${s.level}`);
  });
  const dials = $(drawing, '[data-bind="dials"]');
  const valves = $(drawing, '[data-bind="valves"]');
  if (dials.children.length !== d.dials.length) {
    dials.replaceChildren(...d.dials.map((dial) => dialNode(dial, d)));
    valves.replaceChildren(...d.valves.map((valve) => valveNode(valve, d)));
  }
  d.dials.forEach((dial, j) => {
    const g = dials.children[j];
    g.setAttribute("class", `dial ${dial.state} c${dial.colour}${dial.pinned ? " pinned" : ""}`);
    $(g, ".needle").setAttribute("transform", `rotate(${dial.angle})`);
  });
  d.valves.forEach((valve, j) => {
    const g = valves.children[j];
    g.setAttribute("class", `valve${valve.open ? " open" : " shut"}${valve.can_turn ? "" : " dead"} c${valve.colour}`);
    $(g, ".stream").setAttribute("stroke-width", valve.flow);
    markValve(g, valve);
  });
  const manifold = $(drawing, '[data-bind="manifold"]');
  manifold.setAttribute("x1", d.manifold[0]);
  manifold.setAttribute("x2", d.manifold[1]);
  $(drawing, '[data-bind="plate"]').textContent = d.plate;
  const strata = $(drawing, '[data-bind="strata"]');
  if (strata.children.length !== d.strata.length) {
    strata.replaceChildren(...d.strata.map((s) => svg("rect", { "data-index": s.index, x: 340, width: 120 })));
  }
  d.strata.forEach((s, j) => {
    const rect = strata.children[j];
    rect.setAttribute("class", `stratum c${s.colour}`);
    rect.setAttribute("y", s.y);
    rect.setAttribute("height", s.height);
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
      r.strip.map(() => html("span", { class: "cell" })))]),
    ...["dot", "scaled", "tempered", "exp"].map(() => html("td", { class: "num" })),
    html("td", { class: "weight" }, [
      svg("svg", { class: "bar", viewBox: "0 0 1 1", preserveAspectRatio: "none", "aria-hidden": "true", focusable: "false" },
        [svg("rect", { class: "bar-track", width: 1, height: 1 }), svg("rect", { class: "bar-fill", height: 1 })]),
      html("span", { class: "num" })]),
  ]);
}

/** Fill the working table (FIG-005) for one answer. */
export function renderTable(root, data, rebuild) {
  const tbody = $(root, 'tbody[data-bind="rows"]');
  if (!tbody) return;
  if (rebuild || tbody.children.length !== data.rows.length) tbody.replaceChildren(...data.rows.map(rowNode));
  data.rows.forEach((r, j) => {
    const tr = tbody.children[j];
    tr.className = [r.is_query && "is-query", r.future && "future", r.shut && "shut"].filter(Boolean).join(" ");
    const cells = tr.children;
    ["dot", "scaled", "tempered", "exp"].forEach((key, k) => { cells[3 + k].textContent = r[key].text; });
    $(cells[7], ".bar-fill").setAttribute("width", r.weight.value);
    $(cells[7], ".num").textContent = r.weight.text;
    const strip = $(cells[2], ".strip");
    strip.setAttribute("aria-label", "terms " + r.strip.map((c) => c.term).join(", "));
    r.strip.forEach((c, k) => { strip.children[k].className = `cell ${c.sign} l${c.level}`; });
    $(tr, "button").setAttribute("aria-pressed", String(r.is_query));
  });
  for (const el of root.querySelectorAll('[data-bind="query-word"]')) el.textContent = data.query.word;
}

/** Fill the attention matrix (FIG-006) for one answer. */
export function renderMatrix(root, data, rebuild) {
  const table = $(root, 'table[data-bind="matrix"]');
  if (!table) return;
  const words = data.sentence.words;
  if (rebuild || table.tBodies[0].rows.length !== words.length) {
    table.tHead.rows[0].replaceChildren(html("td"), ...words.map((w) =>
      html("th", { scope: "col", class: "col-word" }, [html("span", {}, w)])));
    table.tBodies[0].replaceChildren(...words.map((w, r) => html("tr", { "data-index": r }, [
      html("th", { scope: "row" }, [html("span", { class: `swatch c${r % 8}`, "aria-hidden": "true" }), w]),
      ...words.map((_, c) => html("td", { "data-col": c, tabindex: "-1" })),
    ])));
    const first = table.tBodies[0].rows[0].cells[1];
    first.tabIndex = 0;
  }
  table.classList.toggle("compact", words.length > 12);
  data.matrix.forEach((row, r) => {
    const tr = table.tBodies[0].rows[r];
    tr.classList.toggle("is-query", r === data.query.index);
    row.forEach((cell, c) => {
      const td = tr.cells[c + 1];
      td.className = cell ? `m l${cell[1]}` : "m masked";
      td.textContent = cell ? cell[0] : "";
      td.setAttribute("aria-label", cell ? `${words[r]} → ${words[c]}: ${cell[0]}` : `${words[r]} → ${words[c]}: masked`);
    });
  });
  for (const el of root.querySelectorAll('[data-bind="head"]')) el.textContent = data.head.name;
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
  slider.setAttribute("aria-valuetext", `T = ${data.temperature.text}`);
  $(root, '[data-bind="behaviour"]').textContent = data.head.behaviour;
  for (const el of root.querySelectorAll('[data-bind="head"]')) el.textContent = data.head.name;
  for (const el of root.querySelectorAll('[data-bind="query-word"]')) el.textContent = data.query.word;
}

function renderHeads(root, data) {
  for (const card of root.querySelectorAll(".head-card")) {
    const current = card.dataset.head === data.head.name;
    card.classList.toggle("is-current", current);
    $(card, ".use-head").setAttribute("aria-pressed", String(current));
  }
}

const MESSAGE_SLOTS = { sentence: "#bench-sentence-msg", temperature: "#bench-t-msg", shut: "#bench-shut-msg" };

function renderErrors(root, problems) {
  for (const selector of Object.values(MESSAGE_SLOTS)) {
    const slot = $(root, selector);
    if (slot) slot.textContent = "";
  }
  for (const input of root.querySelectorAll(".bench-controls input")) input.removeAttribute("aria-invalid");
  const status = $(root, ".runtime-status");
  for (const { field, message } of problems) {
    const slot = $(root, MESSAGE_SLOTS[field] || "#none");
    if (slot) slot.textContent = message;
    else if (status && !$(document, MESSAGE_SLOTS[field] || "#none")) status.textContent = message;
    const input = $(root, `.bench-controls input[name="${field}"]`);
    if (input) input.setAttribute("aria-invalid", "true");
  }
}

export { renderControls, renderHeads, renderErrors };
