// FIG-006 on request: the attention matrix without the steps removed in the what-if panel.
// Python computes that matrix with every answer (data.whatif.matrix, attention/whatif.py); this
// widget fills the figure's own table with it, cell by cell, with the same functions that
// fill the real matrix (bench-parts.js), so the table stays one table and one markup source.

import { fillCell, fillRowHead } from "./bench-parts.js";
import { setText } from "./dom.js";

const $ = (root, selector) => root.querySelector(selector);

/** Fill the matrix with the counterfactual rows `cf`, or with the real ones when cf is null. */
export function fillMatrix(table, data, cf) {
  const rows = table.tBodies[0].rows;
  data.matrix.forEach((real, r) => {
    const cells = rows[r].cells;
    fillRowHead(cells[0], data.sentence.words[r], data.rows[r], data.empty[r]);
    if (cf) setText(cells[0].children[2], cf[r].note);
    (cf ? cf[r].cells : real).forEach((value, c) => {
      fillCell(cells[c + 1], value, cf ? cf[r].masks[c] : data.masks[r][c], c);
    });
  });
  table.classList.toggle("whatif-shown", Boolean(cf));
}

export function mount(root, store) {
  const figure = root.closest("figure") || document;
  const table = $(figure, 'table[data-bind="matrix"]');
  const box = $(root, 'input[name="whatif-matrix"]');
  const label = $(root, '[data-whatif-matrix="label"]');
  const status = $(root, '[data-whatif-matrix="status"]');
  if (!table || !box) return;
  root.hidden = false;
  let data = null; // the newest good answer
  let shown = false; // whether the table holds the counterfactual now

  const draw = () => {
    // an answer that left out the matrix the page holds (attention.delta) and could not be
    // completed is asked again in full by bench.js: draw nothing from it meanwhile
    if (!data || !data.whatif || !data.matrix) return;
    const cf = data.whatif.matrix;
    box.disabled = !cf;
    if (!cf) box.checked = false;
    const on = box.checked;
    // The real matrix is drawn by bench.js with every answer; after showing the
    // counterfactual, put the real numbers back ourselves.
    if (on || shown) fillMatrix(table, data, on ? cf : null);
    shown = on;
    setText(label, data.whatif.matrix_label);
    setText(status, on ? data.whatif.matrix_note : "");
  };
  box.addEventListener("change", draw);

  let drawn = null;
  store.subscribe((s) => {
    if (!s.answer || s.answer === drawn || !s.answer.ok) return;
    drawn = s.answer;
    data = s.answer.data;
    draw();
  });
}
