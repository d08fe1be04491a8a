// Attention Bench's service worker: after one visit the site, Python included, works offline.
// Built by build.py: VERSION is a hash of the site's content, so a new build replaces the cache.

const VERSION = "{{ version }}";
const SITE_CACHE = `attention-bench-site-${VERSION}`;
const RUNTIME_CACHE = "attention-bench-runtime-{{ pyodide }}"; // immutable: kept across builds
const SITE_FILES = {{ site_files|tojson }};
const RUNTIME_FILES = {{ runtime_files|tojson }};
const NETWORK_TIMEOUT_MS = 4000;

const isRuntime = (url) => RUNTIME_FILES.some((file) => url.endsWith(file));

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SITE_CACHE);
    await cache.addAll(SITE_FILES.map((file) => new Request(file, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("attention-bench-") && name !== SITE_CACHE && name !== RUNTIME_CACHE) {
        await caches.delete(name);
      }
    }
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
  if (event.data && event.data.type === "keep-runtime") event.waitUntil(keepRuntime());
});

async function fromCache(request) {
  const hit = await caches.match(request, { ignoreSearch: request.mode === "navigate" });
  if (hit) return hit;
  throw new Error("offline and not cached");
}

async function networkFirst(request) {
  const cache = await caches.open(SITE_CACHE);
  try {
    const response = await Promise.race([
      fetch(request),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), NETWORK_TIMEOUT_MS)),
    ]);
    if (response.ok && request.mode !== "navigate") cache.put(request, response.clone());
    return response;
  } catch {
    return fromCache(request);
  }
}

async function cacheFirst(request) {
  const hit = await caches.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) (await caches.open(RUNTIME_CACHE)).put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  event.respondWith(isRuntime(url.pathname) ? cacheFirst(event.request) : networkFirst(event.request));
});
