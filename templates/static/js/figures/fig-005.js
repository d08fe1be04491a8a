//# allFunctionsCalledOnLoad
// FIG-005, the bench's full working: a row's word is the button that makes it the query
// (bench.js asks Python); each answer fills every row's marks at once and the numbers of rows
// far off screen once the page is idle or they come near (near.js).

import { ask, mountBench, STATE } from "./bench.js";
import { fillRowNumbers, markRow } from "./bench-parts.js";
import { $, bound, part, setAttr, setText, syncList } from "../dom.js";
import { fillNear, watchNear } from "../near.js";

export { STATE };

function wireTable(root, store) {
  const tbody = $(root, 'tbody[data-bind="rows"]');
  if (!tbody) return;
  for (const word of tbody.querySelectorAll(".row-word")) { // the word becomes the row's button
    const button = part(root, "row-choice");
    setText(button, word.textContent);
    setAttr(button, "aria-pressed", String(word.closest("tr").classList.contains("is-query")));
    word.replaceWith(button);
  }
  tbody.addEventListener("click", (event) => {
    const tr = event.target.closest("tr[data-index]");
    if (tr) ask(store, { query: Number(tr.dataset.index) });
  });
}

/** Fill the working table for one answer: every row's marks now, the numbers of
 * rows far off screen once the page is idle or they come near (near.js). */
function renderTable(root, data) {
  const tbody = $(root, 'tbody[data-bind="rows"]');
  if (!tbody) return;
  syncList(tbody, data.rows, () => part(root, "row")); // as many rows as words
  fillNear(tbody, data.rows, fillRowNumbers, markRow);
  setText(bound(root, "exp-total"), data.total.exp.text);
  setText(bound(root, "weight-total"), data.total.weight.text);
  for (const el of root.querySelectorAll('[data-bind="query-word"]')) setText(el, data.query.word);
}

export function mount(root, store) {
  return mountBench(root, store, {
    wire() {
      wireTable(root, store);
      watchNear([...($(root, 'tbody[data-bind="rows"]')?.rows || [])]);
    },
    draw(data) { renderTable(root, data); },
  });
}
