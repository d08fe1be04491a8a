//# allFunctionsCalledOnLoad
// A trained model's row beside the bench's hand-set row (the comparison panel). Python answers the bench's
// state (sentence, query, head) through the shared store; this module only picks the trained
// rows out of the JSON files the build wrote, and computes nothing.

import { $, dropAttrs, html, markStale, setAttr, setText } from "../dom.js";
import { watchNear, whenIdle, writeNear } from "../near.js";
import { t } from "../i18n.js";

/** The live state this widget shows, by its name in the bridge (attention.protocol.registry.STATES):
 * the comparison shows the bench's state beside a trained head. page.js opens a link's state with it. */
export const STATE = "bench";

const all = (root, selector) => [...root.querySelectorAll(selector)];
const SLOW_MS = 250; // a load slower than this hides the previous state's rows

/** Fetch an example's trained rows once; later calls share the same promise. */
function load(root, cache, file) {
  if (!cache.has(file)) {
    cache.set(file, fetch(new URL(file, document.baseURI)).then((response) => {
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      return response.json();
    }));
    cache.get(file).catch(() => cache.delete(file)); // a later render may try again
  }
  return cache.get(file);
}

/** The state to draw, from a bench answer's data and the reader's own head choice. */
function viewOf(data, picked, root) {
  const matched = JSON.parse(root.dataset.matched);
  const name = picked || matched[data.head.name];
  return {
    sentence: data.sentence.text, head: data.head.name, query: data.query.index,
    word: data.query.word, handset: data.rows, name, picked: Boolean(picked),
    layer: Number(name.split("-")[0]), unit: Number(name.split("-")[1]),
  };
}

/** Put the word (or a button that makes it the query) into a row's token cell. */
function tokenCell(th, token, choosable) {
  if (!choosable) return th.replaceChildren(token);
  const button = $(th, "button");
  if (button) return setText(button, token);
  th.replaceChildren(html("button", { type: "button", class: "row-choice" }, token));
}

function renderLine(root, view) {
  const option = $(root, `select[name="trained"] option[value="${view.name}"]`);
  const table = JSON.parse(root.dataset.table);
  setText($(root, '[data-bind="bench-head"]'), view.head);
  setText($(root, '[data-bind="score-head"]'), view.head);
  for (const el of all(root, '[data-bind="trained-head"], [data-bind="matrix-head"]')) {
    setText(el, option.textContent);
  }
  setText($(root, '[data-bind="match"]'), view.picked ? t("trained.picked") : t("trained.best"));
  setText($(root, '[data-bind="score"]'), table[view.head][view.layer][view.unit]);
  const result = JSON.parse(root.dataset.results).find((r) => r.behaviour === view.head);
  setText($(root, '[data-bind="strength"]'), view.picked ? "" : t("list.separator") + result.strength);
  setText($(root, '[data-bind="query-word"]'), view.word);
  setText($(root, '[data-bind="sentence"]'), view.sentence);
  const select = $(root, 'select[name="trained"]');
  if (select.value !== (view.picked ? view.name : "")) select.value = view.picked ? view.name : "";
}

function renderRows(root, view, example) {
  const tbody = $(root, 'tbody[data-bind="trained-rows"]');
  const template = $(root, 'template[data-template="trained-row"]').content.firstElementChild;
  const tokens = example.tokens;
  while (tbody.rows.length > tokens.length) tbody.lastElementChild.remove();
  while (tbody.rows.length < tokens.length) tbody.append(template.cloneNode(true));
  const row = example.rows[view.layer][view.unit][view.query + 1].split(" ");
  tokens.forEach((token, c) => {
    const tr = tbody.rows[c];
    const word = c > 0 && c < tokens.length - 1 ? view.handset[c - 1] : null;
    setAttr(tr, "data-index", c);
    setAttr(tr, "class", c === view.query + 1 ? "is-query" : "");
    tokenCell($(tr, '[data-bind="token"]'), token, Boolean(word));
    const handset = $(tr, '[data-bind="handset"]');
    if (word) {
      handset.replaceChildren(html("span", { class: "num" }, word.weight.text),
        html("span", { class: "row-note" }, word.future ? t("fig-008.masked") : ""));
    } else {
      handset.replaceChildren(html("span", { class: "none" }, t("fig-008.none")),
        html("span", { class: "visually-hidden" }, t("fig-008.no-token")));
    }
    setAttr($(tr, ".bar-fill"), "width", row[c]);
    setText($(tr, '[data-bind="trained"] .num'), row[c]);
  });
}

function renderMatrix(root, view, example) {
  const table = $(root, 'table[data-bind="trained-matrix"]');
  const tokens = example.tokens;
  const head = table.tHead.rows[0];
  if (head.cells.length !== tokens.length + 1 || [...head.cells].slice(1).some((th, c) => th.textContent !== tokens[c])) {
    head.replaceChildren(html("td"), ...tokens.map((t) =>
      html("th", { scope: "col", class: "col-word" }, [html("span", {}, t)])));
    table.tBodies[0].replaceChildren(...tokens.map((t) =>
      html("tr", {}, [html("th", { scope: "row" }, t), ...tokens.map(() => html("td", { class: "m" }))])));
  }
  const rows = example.rows[view.layer][view.unit];
  const levels = example.levels[view.layer][view.unit];
  [...table.tBodies[0].rows].forEach((tr, r) => {
    setAttr(tr, "class", r === view.query + 1 ? "is-query" : "");
    const texts = rows[r].split(" ");
    const shades = levels[r].split(" ");
    [...tr.cells].slice(1).forEach((td, c) => {
      setText(td, texts[c]);
      setAttr(td, "class", `m l${shades[c]}`);
    });
  });
}

/** Draw the panel for a view: the line, then the rows and matrix once they are loaded
 * (unless `current()` says a newer view has been asked for meanwhile). */
function render(root, cache, view, current) {
  const examples = JSON.parse(root.dataset.examples);
  const k = examples.findIndex((e) => e.text === view.sentence);
  renderLine(root, view);
  all(root, ".trained-examples button").forEach((b, n) => setAttr(b, "aria-pressed", n === k));
  const compare = $(root, '[data-bind="compare"]');
  const parts = [compare, $(root, '[data-bind="matrix-box"]'), $(root, ".trained-download")];
  const missing = $(root, '[data-bind="missing"]');
  if (k < 0) {
    for (const el of parts) el.hidden = true;
    missing.hidden = false;
    setText(missing, t("trained.not-example"));
    return;
  }
  // The rows shown belong to the previous state until the new ones load. A load that takes
  // longer than a moment hides them (never dims them: dimmed text fails contrast, and stale
  // numbers must not read as current) and says that they are loading.
  setAttr(compare, "aria-busy", true);
  clearTimeout(root.loadingTimer);
  root.loadingTimer = setTimeout(() => { for (const el of parts) el.classList.add("is-loading"); }, SLOW_MS);
  const settled = () => {
    clearTimeout(root.loadingTimer);
    for (const el of parts) el.classList.remove("is-loading");
    dropAttrs(compare, "aria-busy");
  };
  load(root, cache, examples[k].file).then((example) => {
    if (!current()) return; // a newer state is on its way
    renderRows(root, view, example);
    renderMatrix(root, view, example);
    setAttr($(root, '[data-bind="download"]'), "href", examples[k].file);
    for (const el of parts) el.hidden = false;
    missing.hidden = true;
    settled();
  }).catch((error) => {
    settled();
    for (const el of parts) el.hidden = true;
    missing.hidden = false;
    setText(missing, t("trained.not-loaded", { why: error.message }));
  });
}

function ask(store, change) {
  store.change(() => ({ figure: STATE, ...store.good.state }), change);
}

export function mount(root, store) {
  store.good ??= { state: JSON.parse(root.dataset.state) };
  const cache = new Map();
  // The rows of the sentence on screen are fetched once the page is idle: the first click
  // that needs them then finds them on their way (starting a fetch is slow in a busy frame).
  const shown = JSON.parse(root.dataset.examples).find((e) => e.text === store.good.state.sentence);
  if (shown) whenIdle(() => load(root, cache, shown.file).catch(() => {}));
  watchNear([root]); // where it is, known before the first answer
  const form = $(root, ".trained-controls");
  form.hidden = false;
  let data = null; // the newest bench answer's data; null until Python has answered
  let picked = JSON.parse(root.dataset.state).trained || "";
  let drawn = 0; // how many views have been drawn: only the newest may fill in its rows
  const draw = () => {
    if (!data) return;
    const mine = ++drawn;
    render(root, cache, viewOf(data, picked, root), () => mine === drawn);
  };
  form.addEventListener("submit", (event) => event.preventDefault());
  $(form, 'select[name="trained"]').addEventListener("change", (event) => {
    picked = event.target.value;
    draw(); // the rows are already here: show them now, and let Python keep the address
    ask(store, { trained: picked || null });
  });
  for (const button of all(form, ".trained-examples button")) {
    button.addEventListener("click", () => ask(store, { sentence: button.dataset.sentence, query: null, shut: [] }));
  }
  $(root, 'tbody[data-bind="trained-rows"]').addEventListener("click", (event) => {
    const tr = event.target.closest("tr[data-index]");
    if (tr && $(tr, "button")) ask(store, { query: Number(tr.dataset.index) - 1 });
  });
  for (const tr of all(root, 'tbody[data-bind="trained-rows"] tr')) {
    const c = Number(tr.dataset.index);
    const th = $(tr, '[data-bind="token"]');
    tokenCell(th, th.textContent, c > 0 && c < root.querySelectorAll('tbody[data-bind="trained-rows"] tr').length - 1);
  }
  let seen = null;
  store.subscribe((state) => {
    const answer = state.answer;
    if (!answer || answer === seen || (answer.ok && answer.figure !== "bench")) return;
    seen = answer;
    // the hand-set column belongs to the last good state
    markStale(root, !answer.ok, answer.unavailable ? "runtime" : "input");
    if (!answer.ok) return;
    data = answer.data;
    store.good = answer.data;
    if (answer.data.state.trained !== undefined) picked = answer.data.state.trained || "";
    writeNear(root, draw); // far below the bench's controls: drawn (and its rows fetched) once idle
  });
}
