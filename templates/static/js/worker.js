// The Python runtime, in a module worker so that loading it never blocks the page.
// It only moves JSON text in and out: every number is computed by attention.bridge.
// While it loads, it reports how many bytes have arrived, so a slow network shows progress
// instead of timing out while the download is still going.

let handle = null;
let loaded = 0;
let reported = 0;

function report(bytes) {
  loaded += bytes;
  const now = Date.now();
  if (now - reported < 100) return; // at most ten messages a second
  reported = now;
  self.postMessage({ type: "progress", loaded });
}

/** A Response whose body counts its bytes as Pyodide reads them. */
function counted(response) {
  if (!response.body) return response;
  const counter = new TransformStream({
    transform(chunk, controller) {
      report(chunk.byteLength);
      controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(counter),
    { status: response.status, statusText: response.statusText, headers: response.headers });
}

const plainFetch = self.fetch.bind(self);
self.fetch = async (...args) => counted(await plainFetch(...args));

async function boot({ indexURL, wheelURL }) {
  // pyodide.asm.js comes by import(), which reports nothing: fetch it first (counted), so
  // the import finds it in the cache.
  await (await self.fetch(indexURL + "pyodide.asm.js")).arrayBuffer();
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  const pyodide = await loadPyodide({
    indexURL,
    packages: ["numpy", wheelURL],
    stdout: () => {},
    stderr: (line) => console.warn(line),
  });
  handle = pyodide.pyimport("attention.bridge").handle_json; // kept: no runPython per request
}

self.onmessage = async ({ data }) => {
  if (data.type === "boot") {
    try {
      await boot(data);
      self.postMessage({ type: "progress", loaded });
      self.postMessage({ type: "ready" });
    } catch (error) {
      self.postMessage({ type: "failed", reason: String((error && error.message) || error) });
    }
  } else if (data.type === "request") {
    let json;
    try {
      json = handle(data.json);
    } catch (error) {
      const message = "Python could not answer: " + String((error && error.message) || error);
      json = JSON.stringify({ ok: false, errors: [{ field: null, message }] });
    }
    self.postMessage({ type: "answer", id: data.id, channel: data.channel, json });
  }
};
