// The Python runtime, in a module worker so that loading it never blocks the page.
// It only moves JSON text in and out: every number is computed by attention.bridge.

let handle = null;

async function boot({ indexURL, wheelURL }) {
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
