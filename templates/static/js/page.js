// Mount every interactive figure on the page and start Python after first paint.

import { createStore } from "./store.js";
import * as runtime from "./runtime.js";
import * as fig002 from "./fig002.js";
import * as lab from "./lab.js";
import * as predict from "./predict.js";
import * as bench from "./bench.js";

const WIDGETS = { "fig-002": fig002, lab, predict, bench };

const STATUS_TEXT = {
  loading: "Loading Python in your browser… The figure shows the values computed when the site was built.",
  ready: "Live: Python in your browser computes every number you see.",
  failed: "Python could not start here ({reason}). The figure shows the values computed when the site was built.",
};

function showStatus(element, { state, reason }) {
  if (!element || state === "idle") return;
  element.hidden = false;
  element.dataset.state = state;
  element.textContent = STATUS_TEXT[state].replace("{reason}", reason);
}

// Figures of one group (data-group) share a store: one state, drawn several ways.
const stores = new Map();
function storeFor(root, index) {
  const name = root.dataset.group || `${root.dataset.widget}-${index}`;
  if (!stores.has(name)) {
    stores.set(name, createStore({}, (request, answer) => runtime.request(name, request, answer)));
  }
  return stores.get(name);
}

let index = 0;
for (const root of document.querySelectorAll("[data-widget]")) {
  const widget = WIDGETS[root.dataset.widget];
  if (!widget) continue;
  const store = storeFor(root, index++);
  widget.mount(root, store);
  const status = root.querySelector(".runtime-status");
  runtime.onStatus((s) => {
    showStatus(status, s);
    store.set({ runtime: s.state });
  });
}

// Start the runtime when the browser is idle after first paint, or as soon as an
// interactive figure scrolls into view, whichever comes first.
const interactive = document.querySelectorAll("[data-widget]");
if (interactive.length) {
  const begin = () => runtime.start();
  if ("requestIdleCallback" in window) requestIdleCallback(begin, { timeout: 1500 });
  else setTimeout(begin, 200);
  const seen = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) begin();
  });
  for (const element of interactive) seen.observe(element);
}
