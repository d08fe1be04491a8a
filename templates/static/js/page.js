// Mount every interactive figure, start Python after first paint, keep the address in step.

import { createStore } from "./store.js";
import * as runtime from "./runtime.js";
import * as share from "./share.js";

// Each widget's module is loaded only on pages that have that widget.
const WIDGETS = {
  "fig-002": () => import("./fig002.js"),
  lab: () => import("./lab.js"),
  predict: () => import("./predict.js"),
  bench: () => import("./bench.js"),
};
const URL_STATE = { "fig-002": "fig-002", lab: "lab", bench: "bench" }; // widget: figure name

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

/** Write a figure's state into the address, so a copied link reopens it. */
function keepAddress(answer) {
  if (!answer.ok || !answer.url) return;
  const query = new URLSearchParams(answer.url).toString();
  history.replaceState(history.state, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
}

/** Show which URL parameters were ignored, and why (as text: never as markup). */
function showNotices(root, answer) {
  const slot = root.querySelector(".state-notice");
  if (!slot || !answer.notices) return;
  slot.textContent = answer.notices.join(" ");
  slot.hidden = answer.notices.length === 0;
}

// Figures of one group (data-group) share a store: one state, drawn several ways.
const stores = new Map();
function storeFor(root, index) {
  const name = root.dataset.group || `${root.dataset.widget}-${index}`;
  if (!stores.has(name)) {
    const store = createStore({}, (request, answer) => runtime.request(name, request, (reply) => {
      keepAddress(reply);
      showNotices(store.first, reply);
      answer(reply);
    }));
    store.first = root;
    stores.set(name, store);
    const figure = URL_STATE[root.dataset.widget];
    if (figure && location.search) { // a shared link: ask Python to read its state
      store.ask({ figure, url: Object.fromEntries(new URLSearchParams(location.search)) });
    }
  }
  return stores.get(name);
}

let index = 0;
for (const root of document.querySelectorAll("[data-widget]")) {
  const load = WIDGETS[root.dataset.widget];
  if (!load) continue;
  const widget = await load();
  const store = storeFor(root, index++);
  widget.mount(root, store);
  const status = root.querySelector(".runtime-status");
  runtime.onStatus((s) => {
    showStatus(status, s);
    store.set({ runtime: s.state });
  });
}
for (const root of document.querySelectorAll("[data-embed]")) share.mount(root);

// Tell the offline module when Python has started (or failed): it registers then.
runtime.onStatus(({ state }) => {
  if (state === "ready" || state === "failed") {
    document.dispatchEvent(new Event("attention-bench:runtime-settled"));
  }
});

// Start the runtime just after the first paint, or as soon as an interactive figure
// scrolls into view, whichever comes first.
const interactive = document.querySelectorAll("[data-widget]");
if (interactive.length) {
  const begin = () => runtime.start();
  requestAnimationFrame(() => setTimeout(begin, 0)); // the frame is painted before this runs
  const seen = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) begin();
  });
  for (const element of interactive) seen.observe(element);
}
