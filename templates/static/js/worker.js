// The worker's entry (runtime.js starts it): it hears the page's messages from its first moment
// and hands them to the worker proper (worker-main.js) once that has loaded. Its words
// (i18n.js) wait for their language's messages (a top-level await), and a worker whose own
// module was still waiting when the page's "boot" came never heard it: the zh and ar editions'
// Python, and then every page's, stayed at "loading (0 %)".

const early = []; // messages that came before worker-main.js was there to take them
self.onmessage = (event) => early.push(event);
import("./worker-main.js").then(({ onMessage }) => {
  self.onmessage = onMessage;
  for (const event of early.splice(0)) onMessage(event);
}, (error) => self.postMessage({ type: "failed", reason: String((error && error.message) || error) }));
