// The Python runtime, in a module worker so that loading it never blocks the page.
// It only moves JSON text in and out: every number is computed by attention.protocol.bridge.
// While it loads, it reports how many bytes have arrived, so a slow network shows progress
// instead of timing out while the download is still going.

import {
  installPackages, keepPackages, savedMemory, savedPackages, startInterpreter, writeBytecode,
} from "./saved-start.js";
import { LANGUAGE, t } from "./i18n.js";

let handle = null;
let python = null; // the interpreter, once started: a data file Python asks for is written into it
let packageURL = null; // the package's wheel: the data files Python may ask for are beside it
let loaded = 0;
let active = 0; // downloads under way
// of which sealed: asked with an integrity hash (Pyodide fetches NumPy's wheel so), whose body
// the browser holds back whole until the hash is checked: no byte shows until its end, so its
// quiet time is no stall (it sat "at 81 %" for 18 s on a slow phone, and a slower link would
// have been told that no data arrived)
let sealed = 0;
let lastByte = Date.now();
// What the start is doing, for the page to say (a slow phone sat at 81 % for 18 s with no word
// of why): "download" the runtime, "start" the interpreter (its WebAssembly still arriving is
// said as the download), load the "packages" (NumPy's wheel and the bench's, fetched and
// unpacked: the share stood still 3 s there under a slow host), "import" NumPy.
let doing = "download";
const progress = () => ({ type: "progress", loaded, doing: doing === "start" && active > 0 ? "download" : doing });

/** The start moves on to `step`: the page hears it at once (an import holds this thread, and
 * the heartbeat with it, until it is done). */
function moveTo(step) {
  doing = step;
  self.postMessage(progress());
}

/** A download has ended (or failed): it is no longer under way. */
function ended(seal) {
  active -= 1;
  sealed -= seal;
}

// A Response whose body counts its bytes as Pyodide reads them; the download ends with it.
function counted(response, seal) {
  if (!response.body) {
    ended(seal);
    return response;
  }
  const counter = new TransformStream({
    transform(chunk, controller) {
      loaded += chunk.byteLength;
      lastByte = Date.now();
      controller.enqueue(chunk);
    },
    flush() {
      ended(seal);
      if (active === 0) self.postMessage(progress()); // the step after it is said at once
    },
  });
  return new Response(response.body.pipeThrough(counter),
    { status: response.status, statusText: response.statusText, headers: response.headers });
}

const plainFetch = self.fetch.bind(self);
self.fetch = async (...args) => {
  const seal = args[1]?.integrity ? 1 : 0;
  active += 1; // from the request on: a server that never answers is a stall too
  sealed += seal;
  lastByte = Date.now();
  try {
    const response = await plainFetch(...args);
    if (!response.body) return counted(response, seal);
    // The runtime gets the response itself, the count a copy read alongside: a Response made
    // anew has no URL, and the engine keeps compiled WebAssembly only for one that has.
    counted(response.clone(), seal).body.pipeTo(new WritableStream()).catch(() => {});
    return response;
  } catch (error) {
    ended(seal);
    throw error;
  }
};

/** Every second: tell the page how far the download is, or give up when bytes stop coming
 * while a download is under way (compiling and importing may take a while: that is fine). */
function heartbeat(stallMs) {
  let tick = Date.now();
  return setInterval(() => {
    const now = Date.now();
    // Busy compiling, this thread could not take in bytes: the network gets a fresh window.
    if (now - tick > 1500) lastByte = now;
    tick = now;
    const quiet = now - lastByte;
    // 10×: with nothing to download whose bytes show, even a slow phone has compiled and
    // imported by then (and has a sealed download's bytes)
    if ((active > sealed && quiet > stallMs) || quiet > 10 * stallMs) {
      self.postMessage({ type: "failed", reason: t("runtime.no-data", { seconds: Math.round(stallMs / 1000) }) });
    } else {
      self.postMessage(progress());
    }
  }, 1000);
}

/** iPads on iPadOS 13 and later say "MacIntel", and Pyodide 0.27.7 takes them for a Mac: it
 * then tries a WebAssembly feature (wasm-gc, for counting a function's arguments) that iOS's
 * WebKit breaks, and loading fails on iPadOS 18 (pyodide#5670). Its test reads
 * navigator.platform for "iPad|iPhone|iPod"; the fix upstream (python/cpython#135388, in
 * Pyodide 0.28) also counts "MacIntel" with several touch points as iOS. A worker has no
 * maxTouchPoints, so the page, which knows, says so (ios), and the worker's navigator says
 * "iPad" to Pyodide's test before the runtime loads: Pyodide then counts arguments in
 * JavaScript, as on every iPhone. Nothing else reads it here. */
function sayIOS() {
  Object.defineProperty(self.navigator, "platform", { value: "iPad", configurable: true });
}

/** Where the start's time goes, as [step, start, end] in ms since the epoch (the page's and
 * the worker's clocks differ; epoch times do not): the page shows them to the profiler and the
 * benchmark as performance measures. */
const steps = [];
function timed(step, start) {
  const end = performance.timeOrigin + performance.now();
  steps.push([step, start, end]);
  return end;
}

/** When the runtime's WebAssembly had arrived (its download's end), if the engine says. */
function wasmArrived() {
  const entry = performance.getEntriesByType?.("resource")
    .find((e) => e.name.endsWith("pyodide.asm.wasm") && e.responseEnd > 0);
  return entry ? performance.timeOrigin + entry.responseEnd : null;
}

const KEEP_AFTER_MS = 1000; // the packages are kept this long after ready

async function boot({ indexURL, wheelURL, ios }) {
  if (ios) sayIOS();
  let at = performance.timeOrigin + performance.now();
  // what a past visit saved is read meanwhile (saved-start.js)
  const memoryRead = savedMemory(indexURL);
  const packagesRead = savedPackages(indexURL, wheelURL);
  // pyodide.asm.js comes by import(), which reports nothing: fetch it first (counted), so
  // the import finds it in the cache.
  await (await self.fetch(indexURL + "pyodide.asm.js")).arrayBuffer();
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  at = timed("runtime script", at);
  moveTo("start"); // its WebAssembly downloads (said as a download), then compiles and starts
  const memory = await memoryRead;
  if (memory) at = timed("saved start read", at);
  const options = { indexURL, stdout: () => {}, stderr: (line) => console.warn(line) };
  const [pyodide, restored] = await startInterpreter(loadPyodide, options, memory);
  const arrived = wasmArrived(); // compiling starts as it streams in; what is left comes after
  if (!restored && arrived && arrived > at) {
    steps.push(["WebAssembly download", at, arrived]);
    at = arrived;
  }
  at = timed(restored ? "interpreter start from the saved memory" : "compile and interpreter start", at);
  moveTo("packages");
  const packages = ["numpy", wheelURL];
  const saved = await installPackages(pyodide, packages, indexURL, wheelURL, await packagesRead);
  at = timed(saved ? "numpy and attention from the saved files" : "numpy and attention wheels", at);
  moveTo("import");
  if (!saved) writeBytecode(pyodide, true); // kept with the packages for the next visit
  pyodide.runPython("import numpy");
  at = timed("import numpy", at);
  const bridge = pyodide.pyimport("attention.protocol.bridge");
  if (LANGUAGE !== "en") bridge.speak(LANGUAGE); // its answers' words in the page's language
  handle = bridge.handle_json; // kept: no runPython per request
  python = pyodide;
  packageURL = wheelURL;
  timed("import attention", at);
  if (!saved) {
    writeBytecode(pyodide, false);
    // a moment after "ready", not in the way of the reader's first requests
    setTimeout(() => keepPackages(pyodide, indexURL, wheelURL), KEEP_AFTER_MS);
  }
  // how Python counts a function's arguments: in JavaScript (iOS), or with wasm-gc (0 = none)
  return pyodide._module._PyEM_CountArgsPtr ? "wasm-gc" : "javascript";
}

/** Why the start failed, in a reader's words: a download the network refused is said as such
 * (each engine words it otherwise: "Failed to fetch", "NetworkError when attempting to fetch
 * resource.", "Load failed"), anything else as the runtime said it. */
function why(error) {
  const message = String((error && error.message) || error);
  return /failed to fetch|networkerror|load failed|dynamically imported module/i.test(message)
    ? t("runtime.not-downloaded") : message;
}

// An answer that asks for a data file first (attention.protocol.bridge.NEEDS): the trained
// layer's weights, 3.6 MB, which no page needs until its reader asks for that figure.
const NEEDS = '{"needs": ';
const files = new Map(); // file name -> its download and write, made once

/** Fetch a file Python needs from beside the package and write it where Python reads it. */
function provide({ file, path }) {
  if (!files.has(file)) {
    files.set(file, (async () => {
      const response = await self.fetch(new URL(file, packageURL));
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      python.FS.mkdirTree(path.slice(0, path.lastIndexOf("/"))); // the package carries no data folder
      python.FS.writeFile(path, bytes);
    })());
    files.get(file).catch(() => files.delete(file)); // asked again, it is fetched again
  }
  return files.get(file);
}

/** Python's answer to a request; one that needs a file first gets it and is asked again. */
async function answer(json) {
  const first = handle(json);
  if (!first.startsWith(NEEDS)) return first;
  const { needs } = JSON.parse(first);
  try {
    await provide(needs);
  } catch (error) {
    const said = String((error && error.message) || error);
    const reason = /failed to fetch|networkerror|load failed/i.test(said) ? t("runtime.refused") : said;
    const message = t("runtime.data-failed", { reason });
    return JSON.stringify({ ok: false, errors: [{ field: null, message }] });
  }
  return handle(json);
}

// Requests the page expects next (runtime.warm): computed one at a time, each in a task of
// its own, so that a reader's request, a message, waits for at most one of them. Each answer
// goes to the page as it is made: the reader's click then finds it there and is drawn in its
// own task, without a trip here and back (nor a wait behind the next one being computed).
let ahead = [];
let aheadTimer = 0;
function warmNext() {
  aheadTimer = 0;
  const json = ahead.shift();
  if (json === undefined || !handle) return;
  try {
    const computed = handle(json);
    // one that needs a file is not fetched for: the reader has not asked for it yet
    if (!computed.startsWith(NEEDS)) self.postMessage({ type: "ahead", json, answer: computed });
  } catch { /* a request that fails fails again when it is made, and says why then */ }
  if (ahead.length) aheadTimer = setTimeout(warmNext, 0);
}

/** Take one message of the page (worker.js hands each on, those that came while this module
 * was loading first). */
export async function onMessage({ data }) {
  if (data.type === "warm") {
    ahead = data.jsons.slice();
    if (!aheadTimer && ahead.length) aheadTimer = setTimeout(warmNext, 0);
    return;
  }
  if (data.type === "boot") {
    const beat = heartbeat(data.stallMs);
    try {
      const countArgs = await boot(data);
      self.postMessage(progress());
      self.postMessage({ type: "ready", countArgs, steps });
    } catch (error) {
      self.postMessage({ type: "failed", reason: why(error) });
    } finally {
      clearInterval(beat);
    }
  } else if (data.type === "request") {
    let json;
    const start = performance.timeOrigin + performance.now();
    try {
      json = await answer(data.json);
    } catch (error) {
      const message = t("runtime.no-answer", { why: String((error && error.message) || error) });
      json = JSON.stringify({ ok: false, errors: [{ field: null, message }] });
    }
    const took = [start, performance.timeOrigin + performance.now()];
    self.postMessage({ type: "answer", id: data.id, channel: data.channel, json, took });
  }
}
