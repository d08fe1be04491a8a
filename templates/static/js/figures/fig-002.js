//# allFunctionsCalledOnLoad
// FIG-002 made live: choose a query row and Python recomputes the whole table.

import { bound, html, setAttr, setClass, setText } from "../dom.js";
import { t } from "../i18n.js";

/** The live state this widget shows, by its name in the bridge (attention.protocol.registry.STATES):
 * FIG-002's query. page.js opens a link's state with it. */
export const STATE = "fig-002";

const FIELDS = ["score", "scaled", "weight", "contribution"];

/** Draw an answer from attention/figures/fig_002.py into the figure. */
export function render(root, data) {
  setText(bound(root, "query"), data.query.token);
  setText(bound(root, "query-vector"), data.query.vector.text);
  for (const row of data.rows) {
    const tr = root.querySelector(`tr[data-query="${row.token}"]`);
    for (const field of FIELDS) setText(bound(tr, field), row[field].text);
    setAttr(bound(tr, "bar"), "width", row.weight.value);
    setClass(tr, "is-query", row.is_query);
    setAttr(tr.querySelector("button"), "aria-pressed", row.is_query);
  }
  setText(bound(root, "output"), data.output.text);
  setText(bound(root, "said"), data.said); // read out politely
}

export function mount(root, store) {
  for (const tr of root.querySelectorAll("tbody tr[data-query]")) {
    const token = tr.querySelector(".key-token");
    token.replaceChildren(html("button", {
      type: "button", class: "row-choice", "aria-pressed": tr.classList.contains("is-query"),
      "aria-label": t("mixture.make-query", { word: tr.dataset.query }),
    }, token.textContent));
    tr.classList.add("choosable");
    tr.addEventListener("click", () => store.ask({ figure: STATE, query: tr.dataset.query }));
  }
  root.querySelector(".fig-hint").hidden = false;
  const notice = root.querySelector(".state-notice");
  let drawn = null;
  store.subscribe((state) => {
    if (!state.answer || state.answer === drawn) return;
    drawn = state.answer;
    if (state.answer.ok) render(root, state.answer.data);
    else setText(notice, state.answer.errors.map((e) => e.message).join(" "));
  });
}
