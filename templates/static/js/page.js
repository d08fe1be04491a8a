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
  whatif: () => import("./whatif.js"),
  quiz: () => import("./quiz.js"),
  trained: () => import("./trained.js"),
};
const URL_STATE = { "fig-002": "fig-002", lab: "lab", bench: "bench", trained: "bench" }; // widget: figure name

const STATUS_TEXT = {
  loading: "Loading Python in your browser… The figure shows the values computed when the site was built.",
  ready: "Live: Python in your browser computes every number you see.",
  failed: "Python could not start here ({reason}). The figure shows the values computed when the site was built.",
};

function showStatus(element, { state, reason }) {
  if (state === "idle") return;
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
  if (slot && answer.ok) slot.textContent = (answer.notices || []).join(" ");
}

/**
 * Make the store for a figure, or the shared store of its group (data-group). A shared
 * link's state is read first; a reader's action made meanwhile is sent after it, built
 * then (requests may be functions), so it changes the linked state rather than replacing it.
 */
function makeStore(name, root) {
  let waitingForUrl = false;
  let deferred = null;
  const send = (request, answer) => {
    const built = typeof request === "function" ? request() : request;
    // A widget inside the figure (the what-if panel) may add fields to every request.
    const full = built.url ? built : { ...built, ...store.extras };
    runtime.request(name, full, (reply) => {
      keepAddress(reply);
      showNotices(root, reply);
      answer(reply);
    });
  };
  const store = createStore((request, answer) => {
    if (waitingForUrl) deferred = [request, answer];
    else send(request, answer);
  });
  store.extras = {};
  const figure = URL_STATE[root.dataset.widget];
  if (figure && location.search) {
    waitingForUrl = true;
    send({ figure, url: Object.fromEntries(new URLSearchParams(location.search)) }, (reply) => {
      store.set({ answer: reply });
      waitingForUrl = false;
      if (deferred) send(...deferred);
      deferred = null;
    });
  }
  return store;
}

const stores = new Map();
const roots = [...document.querySelectorAll("[data-widget]")].filter((r) => WIDGETS[r.dataset.widget]);
const modules = await Promise.all(roots.map((r) => WIDGETS[r.dataset.widget]().catch((error) => error)));
const names = new Map(); // root -> the name of its store
roots.forEach((root, index) => {
  const host = root.parentElement.closest("[data-widget]"); // a widget inside a figure shares its store
  const name = root.dataset.group || names.get(host) || `${root.dataset.widget}-${index}`;
  names.set(root, name);
  const first = !stores.has(name);
  if (first) stores.set(name, Object.assign(makeStore(name, root), { roots: [] }));
  stores.get(name).roots.push(root); // the first one shows the group's notices and errors
  const status = root.querySelector(".runtime-status");
  if (first && status) runtime.onStatus((s) => showStatus(status, s)); // once per group
  if (modules[index] instanceof Error) {
    if (status) status.textContent = `This figure could not be made live: ${modules[index].message}`;
    return;
  }
  modules[index].mount(root, stores.get(name));
});
for (const root of document.querySelectorAll("[data-embed]")) share.mount(root);

// Tell the offline module when Python has started (or failed): it registers then.
runtime.onStatus(({ state }) => {
  if (state === "ready" || state === "failed") {
    document.dispatchEvent(new CustomEvent("attention-bench:runtime-settled", { detail: state }));
  }
});

// Start the runtime just after the first paint, or as soon as an interactive figure
// scrolls into view, whichever comes first.
if (roots.length) {
  const begin = () => runtime.start();
  requestAnimationFrame(() => setTimeout(begin, 0)); // the frame is painted before this runs
  const seen = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) begin();
  });
  for (const element of roots) seen.observe(element);
}
