// Register the service worker that keeps the site, and Python, available offline, and look
// for a newer build on every visit (its content hash changes the worker, which then takes over).
if ("serviceWorker" in navigator && location.protocol !== "file:") {
  const root = document.body.dataset.root || "./";
  navigator.serviceWorker.register(new URL("sw.js", new URL(root, location.href)), { updateViaCache: "none" })
    .then((registration) => registration.update())
    .catch(() => {}); // without it the site still works online; offline, there is nothing to do
}
