//# allFunctionsCalledOnLoad
// The bench's matrix on request: the attention matrix without the steps removed in the what-if panel.
// Python computes that matrix with every answer (data.whatif.matrix, attention/whatif_panel.py);
// this widget holds the reader's toggle, its label and its note, and says in the store which
// matrix to show: the table's one writer (the matrix's module, renderMatrix) fills it, so it stays
// one table and one markup source.

import { $, setText } from "../dom.js";

export function mount(root, store) {
  const box = $(root, 'input[name="whatif-matrix"]');
  const label = $(root, '[data-whatif-matrix="label"]');
  const status = $(root, '[data-whatif-matrix="status"]');
  if (!box) return;
  root.hidden = false;
  let data = null; // the newest good answer

  const draw = () => {
    // an answer that left out the matrix the page holds (attention.protocol.delta) and could not be
    // completed is asked again in full by bench.js: draw nothing from it meanwhile
    if (!data || !data.whatif || !data.matrix) return;
    const cf = data.whatif.matrix;
    box.disabled = !cf;
    if (!cf) box.checked = false;
    const on = box.checked;
    if (on !== Boolean(store.get().matrixWithout)) store.set({ matrixWithout: on }); // the matrix's module draws it
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
