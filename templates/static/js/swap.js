// The page swap behind nav.js, loaded the first time the reader points at or follows one of
// the site's links: fetch the page, check it may be shown in place, and swap it in.

import { setText } from "./dom.js";
import { t } from "./i18n.js";

const SWAPPED = [".site-header", "main", ".site-footer"];
const prefetched = new Map(); // url (without hash) -> Promise of its HTML text
const warmed = new Map(); // url (without hash) -> Promise, settled once it is fetched ahead

export const pageURL = (url) => { const u = new URL(url); u.hash = ""; return u.href; };
// the modules a page runs (opening.js, a classic script, acts only before a document's first
// paint, and answers.js, run early by the head to fetch the page's tables, is page.js's too)
const scripts = (doc) => [...doc.querySelectorAll('script[type="module"][src]:not([data-prefetch])')]
  .map((s) => new URL(s.getAttribute("src"), doc.baseURI).href);

/** The page's HTML text, fetched once and kept a few seconds (a hover fetches it early). */
export function fetchPage(url, signal) {
  const key = pageURL(url);
  if (!prefetched.has(key)) {
    prefetched.set(key, fetch(key, { signal, headers: { Accept: "text/html" } }).then((response) => {
      const type = response.headers.get("content-type") || "";
      if (!response.ok || !type.includes("text/html") || pageURL(response.url) !== key) {
        throw new Error("not a page to swap in"); // an error page, a file, a redirect
      }
      return response.text();
    }));
    prefetched.get(key).catch(() => prefetched.delete(key));
    setTimeout(() => prefetched.delete(key), 10000);
  }
  return prefetched.get(key);
}

/** The parsed page, or null when it must be loaded normally (an embed, another build, another
 * language: this document's modules say their words in its own). */
function parse(text, url) {
  const doc = new DOMParser().parseFromString(text, "text/html");
  const base = doc.createElement("base");
  base.href = url;
  doc.head.prepend(base); // its relative addresses resolve as at its own URL
  const build = (d) => d.body.dataset.build || "";
  if (doc.documentElement.classList.contains("embedded") || build(doc) !== build(document)) return null;
  if (doc.documentElement.lang !== document.documentElement.lang) return null;
  if (SWAPPED.some((selector) => !doc.querySelector(selector) || !document.querySelector(selector))) return null;
  return doc;
}

/** Fetch ahead all a page needs to be swapped in at once: its HTML, its widgets' modules and
 * its answer tables (each fetched once; the browser caches the hashed files). */
export function warm(url) {
  const key = pageURL(url);
  if (!warmed.has(key)) { // once per visit: a hover may ask many times
    warmed.set(key, fetchPage(url).then(async (text) => {
      const doc = parse(text, key);
      if (doc && doc.querySelector("[data-widget]")) (await import("./page.js")).preload(doc, key);
    }).catch(() => warmed.delete(key)));
  }
  return warmed.get(key);
}

function announce(title) {
  const announcer = document.getElementById("page-announcer");
  if (!announcer) return;
  setText(announcer, ""); // emptied first: the same title said again is still announced
  setTimeout(() => setText(announcer, t("site.loaded", { title })), 50);
}

/** Swap the page at url in; false when it must be loaded normally instead. A new page's
 * heading takes focus (fresh: true); a page come back to gets back what had it (place.js). */
export async function swap(url, signal, fresh = true) {
  const doc = parse(await fetchPage(url, signal), url);
  if (!doc) return false;
  let page = null;
  const wantsPage = doc.querySelector("[data-widget], [data-embed]");
  const have = new Set(scripts(document));
  const missing = scripts(doc).filter((src) => !have.has(src));
  if (wantsPage || missing.length) {
    page = await import("./page.js"); // this document's own copy: loaded once, kept
    if (missing.some((src) => src !== page.url)) return false; // a module of its own: load it
  }
  if (signal.aborted) return true;
  page?.unmountPage();
  document.title = doc.title;
  const description = document.querySelector('meta[name="description"]');
  const next = doc.querySelector('meta[name="description"]');
  if (description && next) description.content = next.content;
  for (const name of Object.keys(document.body.dataset)) delete document.body.dataset[name];
  Object.assign(document.body.dataset, doc.body.dataset);
  for (const selector of SWAPPED) {
    document.querySelector(selector).replaceWith(document.adoptNode(doc.querySelector(selector)));
  }
  if (page && wantsPage) await page.mountPage({ swapped: true });
  const heading = document.querySelector("main h1");
  if (heading && fresh) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true }); // the browser restores or sets the scroll itself
  }
  announce(doc.title);
  return true;
}
