// Attention Bench's service worker: after one visit the site, Python included, works offline.
// Built by build.py for one build: BUILD is the id every page of that build carries
// (document.body.dataset.build), and SITE_FILES are its pages and content-hashed files.
//
// One build is one unit. It is precached whole, in a cache named by its id, and a build's
// cache is dropped only when no open page shows that build. A new build's worker waits, as the
// browser has it, until no page is controlled by the old one; it never skips waiting. (In
// Chromium, skipping while the old worker still serves pages leaves both stuck: the old one is
// kept busy by its pages, the new one waits for it to be idle, and an offline reload can hang.)
// Until then the old worker serves pages of the new build well: content-hashed files (static/,
// data/, py/) and the versioned runtime never change under one name, so it reads them from
// whichever cache has them, and once its own build's cache is dropped, pages come from the
// new build's.

const BUILD = "{{ build }}";
const PREFIX = "attention-bench-";
const SITE_CACHE = `${PREFIX}site-${BUILD}`;
const RUNTIME_CACHE = `${PREFIX}runtime-{{ pyodide }}`; // immutable: kept across builds
// What a visit's start of Python saved for the next (static/js/saved-start.js): its keys name
// the runtime and wheels they were made from, and it drops its own old entries
const SAVED_START_CACHE = `${PREFIX}saved-start`;
const SITE_FILES = {{ site_files|tojson }};
const OFFLINE_PAGE = "{{ offline_page }}"; // shown offline for an address this worker never saved
const RUNTIME_FILES = {{ runtime_files|tojson }};
const IMMUTABLE_DIRS = ["static/", "data/", "py/", "runtime/"];
const NETWORK_TIMEOUT_MS = 4000;
const ANSWER_TIMEOUT_MS = 3000; // a page busy starting Python may take a moment to answer
const SETTLE_ATTEMPTS = 10; // a page still loading, or one closing, may not answer: ask again
const SETTLE_PAUSE_MS = 1500;

const scope = () => self.registration.scope; // the site's root URL
const isImmutable = (url) => IMMUTABLE_DIRS.some((dir) => url.startsWith(scope() + dir));
const isRuntime = (url) => RUNTIME_FILES.some((file) => url === scope() + file);

/** Ask every open page of this site which build it shows (null: it did not say in time). */
async function buildsInUse() {
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  return Promise.all(pages.map((client) => new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), ANSWER_TIMEOUT_MS);
    channel.port1.onmessage = ({ data }) => {
      clearTimeout(timer);
      resolve(typeof data === "string" ? data : null);
    };
    client.postMessage({ type: "attention-bench:which-build" }, [channel.port2]);
  })));
}

/** Is a worker newer than this one installing or waiting? (Its build's cache is being filled
 * or kept, so cleaning up is its job.) */
function newerWorker() {
  const me = self.serviceWorker; // undefined in an older browser: then any other counts
  return [self.registration.installing, self.registration.waiting].some((w) => w && w !== me);
}

/** Delete the caches of builds no open page shows. Only the newest worker does this (waiting
 * or active), and only when every page has answered. */
async function dropUnusedCaches(builds) {
  if (builds.includes(null) || newerWorker()) return;
  const keep = new Set([SITE_CACHE, RUNTIME_CACHE, SAVED_START_CACHE, ...builds.map((b) => `${PREFIX}site-${b}`)]);
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && !keep.has(name)) await caches.delete(name);
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SITE_CACHE);
    // A content-hashed file may come from the HTTP cache (it cannot be stale); pages may not.
    await cache.addAll(SITE_FILES.map((file) => new Request(file, {
      cache: isImmutable(new URL(file, scope()).href) ? "default" : "reload",
    })));
    // This build is whole now: an older build no open page shows can go (pages say hello
    // again once this worker is installed, should a page not answer now).
    await dropUnusedCaches(await buildsInUse());
  })());
});

/** Drop the caches no open page needs. Nothing is done on a partial answer (a page that does
 * not answer may show any build), so when a page stays silent (still loading, or closing while
 * it was asked) the question is asked again, a few times, a moment apart. */
async function settle() {
  for (let attempt = 0; attempt < SETTLE_ATTEMPTS; attempt += 1) {
    const builds = await buildsInUse();
    if (!builds.includes(null)) {
      await dropUnusedCaches(builds);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_PAUSE_MS));
  }
}

// Activation is kept short (the pages' requests wait for it): one question, no retries. Claiming
// the pages makes each say hello to this worker, which then asks again until all answer.
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    await dropUnusedCaches(await buildsInUse());
    await self.clients.claim();
  })());
});

// A page whose figures have started Python asks for the runtime to be kept: a reader who
// only reads chapters without live figures never downloads 16 MB for nothing.
async function keepRuntime() {
  const runtime = await caches.open(RUNTIME_CACHE);
  for (const file of RUNTIME_FILES) {
    if (!(await runtime.match(file))) await runtime.add(file).catch(() => {});
  }
}

self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  if (type === "keep-runtime") event.waitUntil(keepRuntime());
  if (type === "attention-bench:hello") event.waitUntil(settle()); // a page has loaded
});

/** A content-hashed or versioned file: from whichever cache has it, else the network. */
async function immutable(request) {
  const hit = await caches.match(request, { ignoreVary: true });
  if (hit) return hit;
  const response = await fetch(request);
  if (response.status === 200 && isRuntime(request.url)) {
    (await caches.open(RUNTIME_CACHE)).put(request, response.clone());
  }
  return response;
}

/** The runtime's WebAssembly: from the browser's HTTP cache when it has it, without asking
 * the network, else as any versioned file. Chromium keeps the machine code it compiled beside
 * the response it compiled from: the HTTP cache's entry, where the first visit's download
 * went. Served from this worker's cache instead, a reader's first return visit compiled it all
 * again (only the visit after kept it). Offline, or with the HTTP cache cleared, this worker's
 * copy still serves. */
async function webAssembly(request) {
  try {
    const kept = await fetch(request, { cache: "only-if-cached", mode: "same-origin" });
    if (kept.ok) return kept;
  } catch { /* not in the HTTP cache */ }
  return immutable(request);
}

/** A page (or any file with a fixed name): the network first, else this build's copy. */
async function networkFirst(request) {
  try {
    return await Promise.race([
      fetch(request),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), NETWORK_TIMEOUT_MS)),
    ]);
  } catch {
    const options = { ignoreSearch: request.mode === "navigate", ignoreVary: true };
    const hit = await caches.match(request, { ...options, cacheName: SITE_CACHE })
      || await caches.match(request, options); // a whole older build, if this one is not cached
    if (hit) return hit;
    if (request.mode === "navigate") return offlinePage(); // not the browser's own error page
    throw new Error("offline and not cached");
  }
}

/** The site's page saying that the address is not saved here, answered as "503 Offline" (a
 * page, in the site's style, with the list of pages that are). */
async function offlinePage() {
  const url = new URL(OFFLINE_PAGE, scope()).href;
  const page = await caches.match(url, { cacheName: SITE_CACHE }) || await caches.match(url);
  if (!page) throw new Error("offline and not cached");
  return new Response(await page.blob(), { status: 503, statusText: "Offline", headers: page.headers });
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !request.url.startsWith(scope())) return;
  if (isRuntime(request.url) && request.url.endsWith(".wasm")) event.respondWith(webAssembly(request));
  else event.respondWith(isImmutable(request.url) ? immutable(request) : networkFirst(request));
});
