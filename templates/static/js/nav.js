// One Python per visit: a link to another page of the site swaps that page's content into
// this document, so the document, its worker and the Python booted in it survive. Everything
// a real navigation does still happens: the address, the title and description, the header's
// current item, focus on the new heading, an announcement, scroll restored on back/forward,
// #anchors. Where the Navigation API is missing, or anything is unusual (another build, not
// HTML, an embed, an error), the browser simply loads the page as always.

const ROOT = new URL(document.body.dataset.root || "./", location.href);
const SWAPPED = [".site-header", "main", ".site-footer"];
const prefetched = new Map(); // url (without hash) -> Promise of its HTML text
let bypass = null; // a URL to let through as an ordinary load

const pageURL = (url) => { const u = new URL(url); u.hash = ""; return u.href; };
const scripts = (doc) => [...doc.querySelectorAll("script[src]")].map((s) => new URL(s.getAttribute("src"), doc.baseURI).href);

/** True for a page of this site that this document may show in place (not an embed). */
function ours(url) {
  const u = new URL(url);
  if (u.origin !== location.origin || !u.pathname.startsWith(ROOT.pathname)) return false;
  const below = u.pathname.slice(ROOT.pathname.length);
  return /^([\w-]+\/)*$/.test(below) && !/^embed\/[\w-]+\//.test(below);
}

function fetchPage(url, signal) {
  const key = pageURL(url);
  if (!prefetched.has(key)) {
    prefetched.set(key, fetch(key, { signal, headers: { Accept: "text/html" } }).then(async (response) => {
      const type = response.headers.get("content-type") || "";
      if (!response.ok || !type.includes("text/html") || pageURL(response.url) !== key) {
        throw new Error("not a page to swap in");
      }
      return response.text();
    }));
    prefetched.get(key).catch(() => prefetched.delete(key));
    setTimeout(() => prefetched.delete(key), 10000); // a page fetched ahead of time stays fresh
  }
  return prefetched.get(key);
}

/** The parsed page, or null when it must be loaded normally. */
function parse(text, url) {
  const doc = new DOMParser().parseFromString(text, "text/html");
  const base = doc.createElement("base");
  base.href = url;
  doc.head.prepend(base); // its relative addresses, resolved as at their own URL
  const build = (d) => d.body.dataset.build || "";
  if (doc.documentElement.classList.contains("embedded") || build(doc) !== build(document)) return null;
  if (SWAPPED.some((selector) => !doc.querySelector(selector) || !document.querySelector(selector))) return null;
  return doc;
}

async function swap(doc) {
  let page = null;
  const wantsPage = doc.querySelector("[data-widget], [data-embed]");
  const have = new Set(scripts(document));
  const missing = scripts(doc).filter((src) => !have.has(src));
  if (wantsPage || missing.length) {
    page = await import("./page.js"); // this document's own copy: loaded once, kept
    if (missing.some((src) => src !== page.url)) return false; // a module of its own: load it
  }
  page?.unmountPage();
  document.title = doc.title;
  document.documentElement.lang = doc.documentElement.lang;
  const description = document.querySelector('meta[name="description"]');
  const next = doc.querySelector('meta[name="description"]');
  if (description && next) description.content = next.content;
  for (const name of Object.keys(document.body.dataset)) delete document.body.dataset[name];
  Object.assign(document.body.dataset, doc.body.dataset);
  for (const selector of SWAPPED) {
    document.querySelector(selector).replaceWith(document.adoptNode(doc.querySelector(selector)));
  }
  if (page && wantsPage) await page.mountPage();
  const heading = document.querySelector("main h1");
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
  const announcer = document.getElementById("page-announcer");
  if (announcer) {
    announcer.textContent = "";
    setTimeout(() => { announcer.textContent = `Page loaded: ${doc.title}`; }, 50);
  }
  return true;
}

function fullLoad(url) {
  bypass = url;
  location.replace(url);
}

function intercept(event) {
  const url = event.destination.url;
  if (bypass === url) {
    bypass = null;
    return;
  }
  if (!event.canIntercept || event.hashChange || event.downloadRequest !== null || event.formData) return;
  if (event.navigationType === "reload" || !ours(url)) return;
  if (event.navigationType !== "traverse" && event.destination.sameDocument) return; // history API
  if (event.navigationType === "traverse" && pageURL(url) === pageURL(location.href)) return;
  event.intercept({
    focusReset: "manual",
    scroll: "after-transition", // the browser restores the position on back/forward, or goes to #anchor or top
    async handler() {
      let done = false;
      try {
        const doc = parse(await fetchPage(url, event.signal), url);
        done = Boolean(doc) && await swap(doc);
      } catch (error) {
        if (event.signal.aborted) return;
      }
      if (!done) fullLoad(url);
    },
  });
}

/** Fetch a page ahead of a likely click: hover, focus or touch on one of the site's links. */
function prefetch(event) {
  const link = event.target.closest && event.target.closest("a[href]");
  if (!link || link.target || link.hasAttribute("download") || !ours(link.href)) return;
  if (pageURL(link.href) !== pageURL(location.href)) fetchPage(link.href).catch(() => {});
}

if (window.navigation && typeof window.navigation.addEventListener === "function") {
  navigation.addEventListener("navigate", intercept);
  for (const type of ["pointerover", "focusin", "touchstart"]) {
    document.addEventListener(type, prefetch, { passive: true });
  }
}
