//# allFunctionsCalledOnLoad
// FIG-006, the attention matrix: a grid a reader walks with the arrow keys, whose rows choose
// the query (bench.js asks Python); each answer fills it, or, when the reader asks
// (whatif-matrix.js sets store.matrixWithout), the same answer's matrix without the what-if
// panel's steps. This module is the table's one writer.

import { ask, mountBench, STATE } from "./bench.js";
import { fillCell, fillColHead, fillRowHead } from "./bench-parts.js";
import { $, dropAttrs, part, setAttr, setClass, setText, syncList } from "../dom.js";

export { STATE };

const ARROWS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

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

const sameMatrix = (a, b) => ["sentence", "head", "temperature", "shut"]
  .every((k) => JSON.stringify(a.state[k]) === JSON.stringify(b.state[k]));

/** Fill the attention matrix for one answer; `before` is the answer drawn last. */
function renderMatrix(root, data, before, without = false) {
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

export function mount(root, store) {
  let before = null; // the answer's data drawn last
  return mountBench(root, store, {
    wire() { wireMatrix(root, store); },
    draw(data, { without }) {
      const last = before;
      before = data;
      renderMatrix(root, data, last, without);
    },
    // no new answer, but the reader turned the what-if toggle: the same answer, redrawn
    toggled(without) { if (before) renderMatrix(root, before, null, without); },
  });
}
