//# allFunctionsCalledOnLoad
// "What if a step were missing?": the real weight row beside the row with steps removed.
// Python computes both (attention.whatif, in the figure's own answer); this module turns the
// reader's toggles into requests on the figure's store and places the texts it gets back.

import { $, dropAttrs, setAttr, setClass, setText } from "../dom.js";
import { t } from "../i18n.js";

/** The steps the reader has ticked, in the order the toggles are written. */
const ticked = (root) => [...root.querySelectorAll('input[name="without"]:checked')].map((b) => b.value);

/** Give the table one row per key, cloning the first row the build wrote. */
function ensureRows(tbody, n) {
  while (tbody.rows.length > n) tbody.lastElementChild.remove();
  while (tbody.rows.length < n) tbody.append(tbody.rows[0].cloneNode(true));
}

const note = (k) => (k.future ? (k.open ? t("whatif-panel.later-word-reachable") : t("whatif-panel.later-word"))
  : k.allowed ? "" : t("whatif-panel.shut"));

/** Fill the key rows: the real weight, and the counterfactual one or nothing. */
function renderKeys(root, w) {
  const tbody = $(root, '[data-whatif="keys"]');
  ensureRows(tbody, w.keys.length);
  const failure = w.counterfactual && w.counterfactual.failure;
  w.keys.forEach((k, j) => {
    const tr = tbody.rows[j];
    setAttr(tr, "class", [k.future && "future", k.future && k.open && "reachable",
      !k.allowed && !k.future && "closed"].filter(Boolean).join(" "));
    setText($(tr, '[data-whatif="word"]'), k.word);
    setText($(tr, '[data-whatif="note"]'), note(k));
    setText($(tr, '[data-whatif="real"]'), k.real.text);
    const cell = $(tr, '[data-whatif="cf"]');
    // An undefined row says so once, in place of its numbers (the sentence says why), as the
    // build writes it (_whatif.html).
    cell.hidden = Boolean(failure) && j > 0;
    if (failure && j === 0) {
      setAttr(cell, "rowspan", w.keys.length);
      setAttr(cell, "class", "cf failure");
      setText(cell, w.counterfactual.cell);
    } else {
      dropAttrs(cell, "rowspan");
      setAttr(cell, "class", k.counterfactual ? "num cf" : "cf"); // a blank cell is no number
      setText(cell, k.counterfactual ? k.counterfactual.text : "");
    }
  });
}

// "none" where the naive weights are undefined, as the build writes it (_whatif.html)
const topText = (row) => (row && row.top ? `${row.top.word} ${row.top.weight.text}` : t("whatif-panel.none"));
const entropyText = (row) => (row && row.entropy ? t("whatif-panel.bits", { bits: row.entropy.text })
  : t("whatif-panel.none"));

/** Draw a figure's what-if data (data.whatif) into the panel. */
export function render(root, w, focused) {
  for (const box of root.querySelectorAll('input[name="without"]')) {
    if (box !== focused) box.checked = w.without.includes(box.value);
  }
  setClass($(root, ".whatif-table"), "no-cf", w.without.length === 0);
  setText($(root, '[data-whatif="title"]'), w.title);
  renderKeys(root, w);
  setText($(root, '[data-whatif="real-top"]'), topText(w.real));
  setText($(root, '[data-whatif="real-entropy"]'), entropyText(w.real));
  setText($(root, '[data-whatif="cf-top"]'), topText(w.counterfactual));
  setText($(root, '[data-whatif="cf-entropy"]'), entropyText(w.counterfactual));
  setText($(root, '[data-whatif="sentence"]'), w.sentence);
  const reach = $(root, '[data-whatif="reach"]');
  if (reach) {
    reach.hidden = !w.reach;
    if (w.reach) setText($(root, '[data-whatif="reach-factor"]'), w.reach.factor);
  }
}

/** Add the removed steps to the figure's later requests; with none removed, add nothing, so
 * a request is the very one the page's precomputed answers are keyed by. */
function keep(store, without) {
  if (without.length) store.extras.without = without;
  else delete store.extras.without;
}

export function mount(root, store) {
  const figure = root.dataset.figure; // "lab" or "bench": the request this panel's store answers
  let state = JSON.parse(root.dataset.state); // the state on screen, without the steps
  let current = null;
  const toggles = $(root, ".whatif-toggles");
  toggles.hidden = false;
  const status = $(root, '[data-whatif="status"]');

  toggles.addEventListener("change", () => {
    keep(store, ticked(root)); // every later request of the figure keeps them
    setText(status, t("whatif.computing"));
    // a change: right after "Use sentence" it is made on the new sentence, not the one on screen
    store.change(() => ({ figure, ...state }), { without: store.extras.without });
  });
  const reachButton = $(root, '[data-whatif="reach-button"]');
  if (reachButton) {
    reachButton.addEventListener("click", () => {
      if (current && current.reach) {
        store.showQuery?.(current.reach.fields);
      }
    });
  }

  let drawn = null;
  store.subscribe((s) => {
    if (!s.answer || s.answer === drawn) return;
    drawn = s.answer;
    if (!s.answer.ok) { // the rows below belong to the last state Python computed
      root.classList.add("stale");
      setText(status, s.answer.unavailable ? t("whatif.stale-runtime") : t("whatif.stale-input"));
      return;
    }
    const w = s.answer.data.whatif;
    if (!w) return;
    current = w;
    state = w.state;
    keep(store, w.without);
    root.classList.remove("stale");
    setText(status, "");
    render(root, w, document.activeElement);
    // (the bench drawing shows it too, drawn with the rest of the drawing by the drawing's module)
  });
}
