//# allFunctionsCalledOnLoad
// Mount every interactive figure of the page, start Python after first paint, keep the address
// in step. nav.js swaps in the next page without reloading: it calls mountPage() again, and
// the one runtime (runtime.js) and its precomputed answers (answers.js) stay for the visit.

import { setText } from "./dom.js";
import { createStore } from "./store.js";
import * as address from "./address.js";
import * as answers from "./answers.js";
import * as runtime from "./runtime.js";
// Each data-widget the templates write and its module, loaded only on pages that have that
// widget: written by the build from the templates (sitebuild/widgets.py)
import { WIDGETS } from "./widgets.js";
import { t } from "./i18n.js";

// nav.js knows this module by it
export const url = import.meta.url;
const afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** Write a figure's state into the address of its page, so a copied link reopens it. */
function keepAddress(answer, session) {
  if (answer.ok && answer.url) address.keep(new URLSearchParams(answer.url).toString(), session.path);
}

/** Show which URL parameters were ignored, and why (as text: never as markup). */
function showNotices(root, answer) {
  const slot = root.querySelector(".state-notice");
  if (slot && answer.ok) setText(slot, (answer.notices || []).join(" "));
}

/** A group's status (drawn by status.js once it has loaded, just after the first paint). */
function statusView(root, session, later) {
  if (!root.querySelector(".runtime-status")) return null;
  const view = { pending: false, source: null, stale: false, link: false, roots: [root], draw: () => {} };
  session.deferred.push(later.then(() => import("./status.js")).then((status) => {
    if (session.alive) status.attach(view, root, session);
  }));
  return view;
}

// Make the store for a figure, or the shared store of its group (data-group). A shared
// link's state is read first; a reader's action made meanwhile is sent after it, built
// then (requests may be functions), so it changes the linked state rather than replacing it.
function makeStore(channel, root, session, view, figure) {
  let waitingForUrl = false;
  let deferred = null;
  const draw = () => view && view.draw();
  const send = (request, answer, onWait) => {
    if (!session.alive) return; // the page was swapped away
    const built = typeof request === "function" ? request() : request;
    // A widget inside the figure (the what-if panel) may add fields to every request.
    const payload = built.url ? built : { ...built, ...store.extras };
    if (view) view.pending = true;
    runtime.request(channel, payload, (reply, source) => {
      if (!session.alive) return;
      if (view) Object.assign(view, { pending: false, source, stale: reply.ok === false });
      keepAddress(reply, session);
      showNotices(root, reply);
      answer(reply);
      draw();
    }, onWait);
    draw();
  };
  const store = createStore((request, answer) => {
    if (waitingForUrl) deferred = [request, answer];
    else send(request, answer);
  });
  store.view = view;
  // with the fields every request of the figure carries, as send() adds them
  store.warm = (requests) => session.alive && runtime.warm(requests.map((r) => ({ ...r, ...store.extras })));
  store.aside = (request, answer) => runtime.request(`${channel}:aside`, request,
    (reply, source) => session.alive && answer(reply, source));
  /** Open the state of the page's address, once the group's figures are mounted; resolves
   * once it is drawn, or waits for Python (the figure then says so itself). */
  store.openLink = () => new Promise((opened) => {
    if (!figure || !location.search) return opened(); // figure: the state the address sets
    waitingForUrl = true;
    if (view) view.link = true;
    send({ figure, url: Object.fromEntries(new URLSearchParams(location.search)) }, (reply) => {
      if (view) view.link = false;
      store.set({ answer: reply });
      if (reply.ok) answers.near(figure, reply.url); // and the reader's next click with it
      opened();
      waitingForUrl = false;
      if (deferred) send(...deferred);
      deferred = null;
    }, opened);
  });
  session.teardown.push(() => { runtime.cancel(channel); runtime.cancel(`${channel}:aside`); });
  return store;
}

/** Bring the figures that opening.js kept out of sight into view. */
const shown = () => delete document.documentElement.dataset.opening;

// the content mounted now: { main, path (its page's), alive, teardown, deferred }
let mounted = null;
let epoch = 0;

/** Mount the figures of the page's content (the <main> now in the document), once. */
// Swapped in (swapped: true), nothing waits for a first paint: all is mounted on return.
export async function mountPage({ swapped = false } = {}) {
  const main = document.querySelector("main") || document.body;
  if (mounted && mounted.main === main) return;
  unmountPage();
  const session = { main, path: location.pathname, alive: true, teardown: [], deferred: [] };
  mounted = session;
  epoch += 1;
  // The tables come at low priority at once: a click made at arrival needs them.
  answers.load(document.body.dataset.answers);
  // An engine that does not anchor scrolling (WebKit) keeps the reader's place by anchor.js.
  if (!globalThis.CSS?.supports("overflow-anchor", "auto")) {
    import("./anchor.js").then((anchor) => session.alive && anchor.keepPlace(main), () => {});
  }
  const later = swapped ? Promise.resolve() : afterPaint();
  for (const note of main.querySelectorAll(".link-note")) note.remove(); // for readers without JS
  // a link printed is its address in full (style.css prints data-href): a relative one is no
  // address on paper (a printout showed "../../lab/#fig-003")
  later.then(() => {
    for (const a of main.querySelectorAll("a[href]:not([href^='#'])")) a.dataset.href = a.href;
  });
  const stores = new Map();
  const roots = [...main.querySelectorAll("[data-widget]")].filter((r) => WIDGETS[r.dataset.widget]);
  // Python ran on the visit's last page (loaded in full: an engine without the Navigation API
  // loads every chapter so): its files are in the cache, only its start is left. Start now.
  if (roots.length && runtime.ranThisVisit()) runtime.start();
  const modules = await Promise.all(roots.map((r) => WIDGETS[r.dataset.widget]().catch((error) => error)));
  if (!session.alive) return;
  const names = new Map(); // root -> the name of its store
  roots.forEach((root, index) => {
    const host = root.parentElement.closest("[data-widget]"); // a widget inside a figure shares its store
    // ... as does one that names the figure it follows (data-joins: a handout's numbers)
    const joined = root.dataset.joins && document.getElementById(root.dataset.joins);
    names.set(root, root.dataset.group || names.get(host) || names.get(joined) || `${root.dataset.widget}-${index}`);
  });
  // One store per group, made at its first live figure (a widget that shows a state, such as
  // the lab, rather than one that only talks to it, such as the prediction before it): that
  // figure speaks for the group, and the address's state is the one it shows.
  for (const name of new Set(names.values())) {
    const group = roots.filter((root) => names.get(root) === name);
    const speaker = group.find((root) => modules[roots.indexOf(root)]?.STATE) || group[0];
    const figure = modules[roots.indexOf(speaker)]?.STATE; // the live state it shows (e.g. "bench")
    const view = statusView(speaker, session, later);
    stores.set(name, makeStore(`${epoch}:${name}`, speaker, session, view, figure));
  }
  roots.forEach((root, index) => {
    const store = stores.get(names.get(root));
    store.roots.push(root); // in page order
    if (store.view && !store.view.roots.includes(root)) store.view.roots.push(root);
    if (modules[index] instanceof Error) {
      const status = root.querySelector(".runtime-status");
      if (status) setText(status, t("runtime.not-live", { why: modules[index].message }));
      return;
    }
    const undo = modules[index].mount(root, store); // a widget may return how to let go of the page
    if (typeof undo === "function") session.teardown.push(undo);
  });
  const shared = [...main.querySelectorAll("[data-embed]")];
  if (shared.length) { // the "Share and download" panels: not needed for the first paint
    session.deferred.push(later.then(() => import("./share.js")).then((share) => {
      if (session.alive) for (const root of shared) share.mount(root);
    }));
  }
  // the figures opening.js keeps out of sight come into view once their link's state is drawn
  Promise.all([...stores.values()].map((store) => store.openLink())).then(shown, shown);
  await Promise.all(session.deferred);
  for (const store of stores.values()) store.view?.draw();
  if (!roots.length) return;
  // Start the runtime just after the first paint, or as soon as an interactive figure
  // scrolls into view, whichever comes first.
  afterPaint().then(() => session.alive && runtime.start());
  const seen = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) runtime.start();
  });
  for (const element of roots) seen.observe(element);
  session.teardown.push(() => seen.disconnect());
}

/** Let go of the mounted content: its requests are dropped, its listeners removed. */
export function unmountPage() {
  if (!mounted) return;
  address.flush();
  mounted.alive = false;
  for (const undo of mounted.teardown) undo();
  mounted = null;
}

/** Load ahead what a page of the site (parsed from url, not yet shown) will mount: its
 * widgets' modules and its precomputed answers, so that swapping it in waits for neither. */
export function preload(doc, url) {
  for (const root of doc.querySelectorAll("[data-widget]")) WIDGETS[root.dataset.widget]?.().catch(() => {});
  const tables = (doc.body.dataset.answers || "").split(" ").filter(Boolean);
  answers.load(tables.map((u) => new URL(u, url).href).join(" "), undefined, true);
}

// Printed, folded text is open (the stylesheet opens it too, where an engine styles a
// <details> element's folded content): a browser's own print says so first.
addEventListener("beforeprint", () => {
  for (const notes of document.querySelectorAll("main details:not([open])")) {
    notes.open = true;
    notes.dataset.printOpened = "";
  }
});
addEventListener("afterprint", () => {
  for (const notes of document.querySelectorAll("main details[data-print-opened]")) {
    notes.open = false;
    delete notes.dataset.printOpened;
  }
});

// Tell the offline module when Python has started (or failed): it registers then.
runtime.onStatus(({ state }) => {
  if (state === "ready" || state === "failed") {
    document.dispatchEvent(new CustomEvent("attention-bench:runtime-settled", { detail: state }));
  }
});

await mountPage();
