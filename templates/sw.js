// Attention Bench's service worker: after one visit the site, Python included, works offline.
// Built by build.py for one build: BUILD is the id every page of that build carries
// (document.body.dataset.build), and SITE_FILES are its pages and content-hashed files.
//
// One build is one unit. It is precached whole, in a cache named by its id. A new build's
// worker takes over only once every open page of this site shows that new build, so no page
// ever has its files swapped under it; and a build's cache is dropped only when no open page
// shows that build. Content-hashed files (static/, data/, py/) and the versioned runtime never
// change under one name, so any cache holding one holds the right bytes.

const BUILD = "{{ build }}";
const PREFIX = "attention-bench-";
const SITE_CACHE = `${PREFIX}site-${BUILD}`;
const RUNTIME_CACHE = `${PREFIX}runtime-{{ pyodide }}`; // immutable: kept across builds
const SITE_FILES = {{ site_files|tojson }};
const RUNTIME_FILES = {{ runtime_files|tojson }};
const IMMUTABLE_DIRS = ["static/", "data/", "py/", "runtime/"];
const NETWORK_TIMEOUT_MS = 4000;
const ANSWER_TIMEOUT_MS = 3000; // a page busy starting Python may take a moment to answer

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

/** Take over now if every open page shows this build; else wait (the browser activates this
 * worker by itself once the pages of the older build are gone). */
async function takeOverIfSafe(builds) {
  if (builds.every((build) => build === BUILD)) await self.skipWaiting();
}

/** Delete the caches of builds no open page shows. Only the newest worker does this, once no
 * newer one is installing or waiting (its build's cache is being filled or kept), and only
 * when every page has answered. */
async function dropUnusedCaches(builds) {
  if (builds.includes(null) || self.registration.installing || self.registration.waiting) return;
  const keep = new Set([SITE_CACHE, RUNTIME_CACHE, ...builds.map((b) => `${PREFIX}site-${b}`)]);
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
    await takeOverIfSafe(await buildsInUse());
  })());
});

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
  if (type === "attention-bench:hello") { // a page has loaded: see who still needs what
    event.waitUntil(buildsInUse().then(async (builds) => {
      await takeOverIfSafe(builds);
      await dropUnusedCaches(builds);
    }));
  }
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
    throw new Error("offline and not cached");
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !request.url.startsWith(scope())) return;
  event.respondWith(isImmutable(request.url) ? immutable(request) : networkFirst(request));
});
