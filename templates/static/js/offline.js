// Register the service worker that keeps the site, and Python, available offline, and look
// for a newer build on every visit (a new build is a new sw.js, which installs beside the old).
// On a page with live figures this waits until Python has started, so that caching the site
// never competes with the runtime for the network or the processor.
//
// The page tells the service worker which build it shows (document.body.dataset.build): a
// worker takes over only when every open page shows its build, and keeps an older build's
// files for as long as a page of that build is open.

const BUILD = document.body.dataset.build;

/** Tell a worker this page is here (it then asks which build the page shows). */
const hello = (worker) => worker && worker.postMessage({ type: "attention-bench:hello" });

/** A new build's worker, once it has cached its build whole, may drop an old build's cache:
 * tell it which build this page shows. */
function helloOnceInstalled(worker) {
  if (!worker) return;
  worker.addEventListener("statechange", () => {
    if (worker.state === "installed") hello(worker);
  });
}

function register(keepRuntime) {
  const root = document.body.dataset.root || "./";
  navigator.serviceWorker.register(new URL("sw.js", new URL(root, location.href)), { updateViaCache: "none" })
    .then((registration) => {
      registration.addEventListener("updatefound", () => helloOnceInstalled(registration.installing));
      helloOnceInstalled(registration.installing);
      return registration.update().catch(() => {}).then(() => registration);
    })
    .then((registration) => {
      hello(registration.waiting);
      hello(registration.active);
      return navigator.serviceWorker.ready;
    })
    .then((registration) => keepRuntime && registration.active.postMessage({ type: "keep-runtime" }))
    .catch(() => {}); // without it the site still works online; offline, there is nothing to do
}

if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.addEventListener("message", (event) => {
    const port = event.ports && event.ports[0];
    if (event.data && event.data.type === "attention-bench:which-build" && port) port.postMessage(BUILD);
  });
  navigator.serviceWorker.startMessages();
  // A newer worker has taken this page over: tell it which build the page shows, so that it
  // can drop an old build's cache once no page needs it.
  navigator.serviceWorker.addEventListener("controllerchange", () => hello(navigator.serviceWorker.controller));
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
