// FIG-002 made live: choose a query row and Python recomputes the whole table.

/** The live state this widget shows, by its name in the bridge (attention.registry.STATES):
 * FIG-002's query. page.js opens a link's state with it. */
export const STATE = "fig-002";

const FIELDS = ["score", "scaled", "weight", "contribution"];

/** Draw an answer from attention.figures.fig_002 into the figure. */
export function render(root, data) {
  root.querySelector('[data-bind="query"]').textContent = data.query.token;
  root.querySelector('[data-bind="query-vector"]').textContent = data.query.vector.text;
  for (const row of data.rows) {
    const tr = root.querySelector(`tr[data-query="${row.token}"]`);
    for (const field of FIELDS) tr.querySelector(`[data-bind="${field}"]`).textContent = row[field].text;
    tr.querySelector('[data-bind="bar"]').setAttribute("width", row.weight.value);
    tr.classList.toggle("is-query", row.is_query);
    tr.querySelector("button").setAttribute("aria-pressed", String(row.is_query));
  }
  root.querySelector('[data-bind="output"]').textContent = data.output.text;
  root.querySelector('[data-bind="said"]').textContent = data.said; // read out politely
}

export function mount(root, store) {
  for (const tr of root.querySelectorAll("tbody tr[data-query]")) {
    const token = tr.querySelector(".key-token");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "row-choice";
    button.textContent = token.textContent;
    button.setAttribute("aria-pressed", String(tr.classList.contains("is-query")));
    button.setAttribute("aria-label", `Make ${tr.dataset.query} the query`);
    token.replaceChildren(button);
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
    else notice.textContent = state.answer.errors.map((e) => e.message).join(" ");
  });
}
