// One Python per visit: a link to another page of the site swaps that page's content into
// this document (swap.js), so the document, its worker and the Python booted in it survive.
// Everything a real navigation does still happens: the address, the title and description,
// the header's current item, focus on the new heading, an announcement, the reader's place
// and focus given back on back/forward (place.js), #anchors. Where the Navigation API is
// missing, or anything is unusual (another build, not HTML, an embed, an error), the browser
// loads the page as always.

import { keep, restore } from "./place.js";

const ROOT = new URL(document.body.dataset.root || "./", location.href);
// The other editions' folders below the root ("zh/ ar/"; English is the root less those): a
// page of another edition says its words in its own language, so it is loaded anew, never
// swapped into this one (swap.js would refuse it, after its address was already shown).
const FOLDERS = (document.body.dataset.editions || "").split(" ").filter(Boolean);
const below = (url) => new URL(url, location.href).pathname.slice(ROOT.pathname.length);
const folder = (path) => FOLDERS.find((f) => path.startsWith(f)) || "";
const EDITION = folder(below(document.body.dataset.home || ROOT.href)); // this page's: kept by every swap
// a URL to let through as an ordinary load
let bypass = null;
// history entry key -> the reader's place there, and what had focus (place.js)
const positions = new Map();
let restoring = () => {}; // stops the place being given back (place.js), if it still is
const noHash = (url) => url.split("#")[0];

/** True for a page of this site, in this page's edition, that this document may show in
 * place (not an embed). */
function ours(url) {
  const u = new URL(url);
  if (u.origin !== location.origin || !u.pathname.startsWith(ROOT.pathname)) return false;
  const path = below(u);
  if (!/^([\w-]+\/)*$/.test(path) || folder(path) !== EDITION) return false;
  return !/^embed\/[\w-]+\//.test(path.slice(EDITION.length));
}

function intercept(event) {
  if (event.defaultPrevented) return; // stopped to be started again (address.js)
  const url = event.destination.url;
  if (bypass === url) {
    bypass = null;
    return;
  }
  if (!event.canIntercept || event.hashChange || event.downloadRequest !== null || event.formData) return;
  if (event.navigationType === "reload" || !ours(url)) return;
  if (event.navigationType !== "traverse" && event.destination.sameDocument) return; // history API
  if (event.navigationType === "traverse" && noHash(url) === noHash(location.href)) return;
  // The place to come back to: this entry's, kept while the document lives (read before
  // pin() writes the links out in full: the one focused is found again by its address)
  restoring(); // the page come back to is left: its place is not to be set on the next
  positions.set(navigation.currentEntry.key, keep());
  pin();
  const back = event.navigationType === "traverse" ? positions.get(event.destination.key) : undefined;
  event.intercept({
    // swap.js focuses a new page's heading, place.js what had focus on a page come back to;
    // the place is set once its figures are in
    focusReset: "manual",
    scroll: "manual",
    async handler() {
      let done = false;
      try {
        done = await (await import("./swap.js")).swap(url, event.signal, back === undefined);
      } catch {
        if (event.signal.aborted) return;
      }
      if (!done) {
        bypass = url;
        // an ordinary load of the same address
        location.replace(url);
      } else if (!event.signal.aborted) {
        place(url, back);
      }
    },
  });
}

/** The address changes before the new page is in (pages at another depth, such as the home
 * page, resolve "../" differently): write this page's relative addresses out in full first, so
 * that nothing it still holds (links, its icon, the scripts swap.js compares) points elsewhere. */
function pin() {
  // A link to a place in the page itself ("Skip to the content": #main) means whichever page
  // is shown: pinned, it led back to the first page of the visit.
  for (const [selector, name] of [["a[href]:not([href^='#']), link[rel~='icon']", "href"], ["script[src]", "src"]]) {
    for (const element of document.querySelectorAll(selector)) {
      element.setAttribute(name, new URL(element.getAttribute(name), document.baseURI).href);
    }
  }
}

// Back/forward: where the reader was; otherwise the #anchor, or the top.
function place(url, back) {
  const id = decodeURIComponent(new URL(url).hash.slice(1));
  const target = id && document.getElementById(id);
  if (back !== undefined) restoring = restore(back);
  else if (target) target.scrollIntoView();
  else scrollTo(0, 0);
}

/** Fetch a page ahead of a likely click: a hover, focus or touch on one of the site's links. */
function prefetch(event) {
  const link = event.target.closest && event.target.closest("a[href]");
  if (!link || link.target || link.hasAttribute("download") || !ours(link.href)) return;
  if (noHash(link.href) !== noHash(location.href)) {
    import("./swap.js").then((m) => m.warm(link.href)).catch(() => {});
  }
}

/** Once the page is idle and its Python has settled (or it has none), fetch ahead the pages
 * the header links to, with their modules and answers: the next chapter is then live at once. */
let warmed = null; // the content whose header links were fetched ahead

function warmHeader() {
  const main = document.querySelector("main");
  if (warmed === main) return; // once per page shown (an address update is no new page)
  warmed = main;
  const idle = window.requestIdleCallback || ((f) => setTimeout(f, 200));
  idle(() => {
    for (const link of document.querySelectorAll(".site-header a[href]")) {
      if (ours(link.href) && noHash(link.href) !== noHash(location.href)) {
        import("./swap.js").then((m) => m.warm(link.href)).catch(() => {});
      }
    }
  }, { timeout: 2000 });
}

if (window.navigation && typeof window.navigation.addEventListener === "function") {
  navigation.addEventListener("navigate", intercept);
  for (const type of ["pointerover", "focusin", "touchstart"]) {
    document.addEventListener(type, prefetch, { passive: true });
  }
  // a page with live figures: once Python is ready (or failed); any other page: once loaded
  document.addEventListener("attention-bench:runtime-settled", warmHeader);
  if (!document.querySelector("[data-widget]")) addEventListener("load", warmHeader, { once: true });
  navigation.addEventListener("navigatesuccess", warmHeader); // a page swapped in
}
