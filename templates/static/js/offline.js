// Register the service worker that keeps the site, and Python, available offline, and look
// for a newer build on every visit (its content hash changes the worker, which then takes over).
// On a page with live figures this waits until Python has started, so that caching the site
// never competes with the runtime for the network or the processor.

function register(keepRuntime) {
  const root = document.body.dataset.root || "./";
  navigator.serviceWorker.register(new URL("sw.js", new URL(root, location.href)), { updateViaCache: "none" })
    .then((registration) => registration.update())
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => keepRuntime && registration.active.postMessage({ type: "keep-runtime" }))
    .catch(() => {}); // without it the site still works online; offline, there is nothing to do
}

if ("serviceWorker" in navigator && location.protocol !== "file:") {
  if (document.querySelector("[data-widget]")) {
    document.addEventListener("attention-bench:runtime-settled", (event) => register(event.detail === "ready"),
      { once: true });
  } else {
    register(false);
    // Python may start later, on a page nav.js swaps in: keep the runtime for offline then.
    document.addEventListener("attention-bench:runtime-settled",
      (event) => event.detail === "ready" && register(true), { once: true });
  }
}
