//# allFunctionsCalledOnLoad
// Fill one clone of a bench part (templates/figures/bench-parts.html) for its item of
// Python's answer. Each function writes every attribute and text the Jinja macro of the same
// name writes, so a filled clone is the markup the build writes for that state. They only
// write what changed (dom.js) and never read layout.

import { dropAttrs, setAttr, setClass, setText } from "../dom.js";
import { t } from "../i18n.js";

export function fillDial(g, x) {
  setAttr(g, "class", `dial ${x.state} c${x.colour} p${x.pattern}${x.best ? " best" : ""}`
    + `${x.pinned ? " pinned" : ""}${x.is_query ? " is-query" : ""}`);
  setAttr(g, "data-index", x.index);
  setAttr(g, "transform", `translate(${x.x} ${x.y})`);
  setAttr(g, "aria-label", x.label);
  const [, , needle, , word, reading] = g.children;
  setAttr(needle, "transform", `rotate(${x.angle})`);
  setText(word, x.word);
  setText(reading, x.reading);
}

/** A stopcock: `live` makes the ones the reader may turn switches (checked: open). */
export function fillValve(g, v, live) {
  setAttr(g, "class", `valve ${v.open ? "open" : "shut"}${v.can_turn ? "" : " dead"} c${v.colour} p${v.pattern}`);
  setAttr(g, "data-index", v.index);
  setAttr(g, "transform", `translate(${v.x} ${v.y})`);
  const [, stream, , , handle] = g.children;
  setAttr(stream, "d", v.stream);
  setAttr(stream, "stroke-width", v.flow);
  ["x1", "y1", "x2", "y2"].forEach((name, k) => setAttr(handle, name, v.handle[k]));
  markValve(g, { label: v.label, state: v.state, open: v.open, can_turn: v.can_turn && live });
}

/** Make a stopcock a switch if the reader may turn it; otherwise an image saying its state. */
export function markValve(g, { label, state, open, can_turn: canTurn }) {
  if (!canTurn) {
    dropAttrs(g, "tabindex", "aria-checked");
    setAttr(g, "role", "img");
    setAttr(g, "aria-label", `${label}: ${state}`);
    return;
  }
  setAttr(g, "role", "switch");
  setAttr(g, "aria-label", label);
  setAttr(g, "tabindex", "0");
  setAttr(g, "aria-checked", String(open)); // checked: open
}

export function fillStratum(g, s) {
  setAttr(g, "class", `stratum c${s.colour} p${s.pattern}`);
  setAttr(g, "data-index", s.index);
  setAttr(g, "aria-label", s.text);
  for (const rect of g.children) {
    setAttr(rect, "y", s.y);
    setAttr(rect, "height", s.height);
  }
  setAttr(g.children[1], "fill", s.pattern ? `url(#bench-p${s.pattern})` : "none");
}

/** A stratum's label, once for wide screens and once for a phone's larger text. */
export function fillStratumLabel(g, s) {
  setAttr(g, "class", `stratum-label${s.label ? "" : " off"}`);
  setAttr(g, "data-index", s.index);
  const [leader, text, phoneLeader, phoneText] = g.children;
  setAttr(leader, "d", s.leader);
  setAttr(text, "y", s.label_y);
  setText(text, s.text);
  setAttr(phoneLeader, "d", s.phone_leader);
  setAttr(phoneText, "y", s.phone_y);
  setText(phoneText, s.text);
}

export function fillManifold(line, m) {
  setAttr(line, "x1", m[0]);
  setAttr(line, "y1", m[2]);
  setAttr(line, "x2", m[1]);
  setAttr(line, "y2", m[2]);
}

function fillSwatch(span, colour, pattern) {
  setAttr(span, "class", `swatch c${colour} p${pattern}`);
}

/** A working-table row, in two parts (the working table's module writes the second one later
 * for a row off screen): its word is the button that makes it the query. Its place and
 * whether it is the query (the row a reader chose, and the one left): */
export function markRow(tr, r) {
  setAttr(tr, "data-index", r.index);
  setClass(tr, "is-query", r.is_query);
  const [j, th] = tr.children;
  setText(j, String(r.index));
  fillSwatch(th.children[0], r.colour, r.pattern);
  setText(th.children[1], r.word);
  setAttr(th.children[1], "aria-pressed", String(r.is_query));
}

/** A row's terms, numbers, bar and note, and whether its key is later or shut: what changes
 * with the query in every row. */
export function fillRowNumbers(tr, r) {
  setClass(tr, "future", r.future);
  setClass(tr, "shut", r.shut);
  const [, , terms, ...cells] = tr.children;
  const strip = terms.firstElementChild;
  setAttr(strip, "aria-label", t("bench-parts.terms", { terms: r.strip.terms }));
  r.strip.signs.forEach((sign, k) => setAttr(strip.children[k], "class", `cell ${sign} l${r.strip.levels[k]}`));
  ["dot", "scaled", "tempered", "exp"].forEach((key, k) => setText(cells[k], r[key].text));
  const [bar, weight, note] = cells[4].children;
  setAttr(bar.children[1], "width", r.bar);
  setText(weight, r.weight.text);
  setText(note, r.note);
}

export function fillColHead(th, word) {
  setText(th.firstElementChild, word);
}

/** A matrix row's header: its word, and a note when every key it may use is shut. */
export function fillRowHead(th, word, row, empty) {
  const [swatch, name, note] = th.children;
  fillSwatch(swatch, row.colour, row.pattern);
  setText(name, word);
  setText(note, empty ? t("bench.all-shut") : "");
}

// a cell without a weight: its class, and the word it shows
const NO_WEIGHT = { f: ["masked future", t("bench.cell-later")], u: ["undefined", t("bench.cell-none")],
  s: ["masked shut", t("bench.cell-shut")] };

/** A matrix cell: a weight and its shade, or why there is none ("f" later, "s" shut, "u" the
 * row's naive softmax failed, in the what-if matrix). */
export function fillCell(td, value, mask, c) {
  const [kind, word] = NO_WEIGHT[mask] || NO_WEIGHT.s;
  setAttr(td, "class", value ? `m l${value[1]}` : `m ${kind}`);
  setAttr(td, "data-col", c);
  setText(td, value ? value[0] : word);
}
