//# allFunctionsCalledOnLoad
// The page's side of the Python runtime: one worker for the whole visit (it survives the page
// swaps of nav.js), its status, and the requests routed to it. Requests are JSON in, JSON out;
// per channel only the newest request is answered. A request among the precomputed answers
// (answers.js) is answered at once, before or after Python is ready, and never starts Python.

import * as answers from "./answers.js";
import { t } from "./i18n.js";

// give up only when no byte of the runtime has arrived for this long (worker.js checks)
const STALL_MS = 45000;
const stallMs = () => Number(config.runtimeStall) || STALL_MS;
// nav.js keeps the body, and updates its attributes
const config = document.body.dataset;
let worker = null;
let booting = false;
let stopped = false; // a start ended as the page was left (pagehide)
// The reader's go-ahead for the download holds for the whole visit: every figure, every page
// of it (loaded in full or swapped in), every embed of the site on a course page.
const CONSENT = "attention-bench:load-python";
const RAN = "attention-bench:python-ran"; // Python was ready on a page of this visit
const remembered = (key) => { try { return sessionStorage.getItem(key) === "yes"; } catch { return false; } };
const remember = (key) => { try { sessionStorage.setItem(key, "yes"); } catch { /* storage off */ } };
let consented = remembered(CONSENT);

/** True when Python was ready on an earlier page of this visit: a page loaded in full (an engine
 * without the Navigation API loads every chapter so) starts it at once, not after its first
 * paint, since its files come from the cache and only the start-up is left to wait for. */
export const ranThisVisit = () => remembered(RAN);
// transfer: the bytes the download takes on this host's wire (0 until measured); doing: what
// the loading start does now (worker.js: "download", "start", "packages", "import")
let status = { state: "idle", reason: "", offline: false, loaded: 0, transfer: 0, doing: "download" };
const listeners = new Set();
// channel -> { id, json, answer } not yet sent
const waiting = new Map();
// channel -> the request being computed
const inFlight = new Map();
// channel -> the id of its newest request
const newest = new Map();
let nextId = 1;
let stall = 0;

function setStatus(patch) {
  status = { ...status, ...patch };
  for (const listener of [...listeners]) listener(status);
}

const absolute = (path) => new URL(path, document.baseURI).href;

/** The runtime's size in bytes, as the build measured it (0 when unknown, e.g. from a CDN). */
export const size = () => Number(config.runtimeBytes) || 0;

/** Ask this host what the download costs on the wire: a HEAD of each file tells its length as
 * the host sends it to this browser (compressed where the host compresses). Resolves to the
 * total, or 0 when a length is not told (offline, or no HEAD here: the build's size holds). */
function measureTransfer() {
  const files = (config.runtimeFiles || "").split(" ").filter(Boolean);
  if (!files.length) return Promise.resolve(0);
  const urls = [...files.map((name) => absolute(`${config.runtimeIndex}${name}`)), absolute(config.runtimeWheel)];
  return Promise.all(urls.map((url) => fetch(url, { method: "HEAD" })
    .then((response) => (response.ok ? Number(response.headers.get("content-length")) : NaN))))
    .then((lengths) => (lengths.every((n) => n > 0) ? lengths.reduce((a, b) => a + b, 0) : 0))
    .catch(() => 0);
}
// How long the question waits for the host's answer before it says "up to" the build's size.
// It says one size, once: shown at once, "up to 17.0 MB" turned into "8.0 MB" 0.6 s later on a
// slow phone link (review 4), and a later answer would change it again.
const SIZING_MS = 2000;

/** The answer every request gets once Python cannot run here: the input may be fine, so it
 * names no field of the figure but "runtime" (each figure says it at its controls). */
function failure() {
  const message = status.offline ? t("runtime.input-offline") : t("runtime.input-failed", { reason: status.reason });
  return { ok: false, unavailable: true, errors: [{ field: "runtime", message }] };
}

function pump(channel) {
  const request = waiting.get(channel);
  if (!request || inFlight.has(channel)) return;
  if (status.state === "failed") {
    waiting.delete(channel);
    request.answer(failure(), "failed");
    return;
  }
  if (status.state !== "ready") return;
  waiting.delete(channel);
  inFlight.set(channel, request);
  worker.postMessage({ type: "request", id: request.id, channel, json: request.json });
}

// The loading start's step, in a reader's words (worker.js; a plain download adds nothing to the
// share), so that the share never sits still without a word (review 4: 81 % for 18 s on a slow
// phone), and a start that stops answering says where it stopped.
export const DOING = {
  download: "",
  start: t("runtime.doing-start"),
  packages: t("runtime.doing-packages"),
  import: t("runtime.doing-import"),
};

// A worker that says nothing for this long (it reports every second while it loads) is gone.
const silenceMs = () => Number(config.runtimeSilence) || Math.max(60000, 2 * stallMs()); // tests may set it
// A start that stopped answering is made once more, in a new worker, before the page says
// Python cannot start: a start that hung in its import of NumPy (once in a few hundred, under
// a busy machine's tests) then started at once.
let restarted = false;
function watch() {
  clearTimeout(stall);
  stall = setTimeout(() => {
    const where = DOING[status.doing] || t("runtime.doing-download");
    if (restarted || status.state !== "loading") {
      fail(t("runtime.silent", { where }));
      return;
    }
    restarted = true;
    worker.terminate();
    worker = null;
    boot();
  }, silenceMs());
}

let answered = false; // Python has answered a request of this page's

/** Show where Python's start went to the browser's profiler and the benchmark, as performance
 * measures named "python: <step>" (the worker sends each step's epoch times). */
function measure(steps = []) {
  for (const [step, start, end] of steps) {
    try {
      performance.measure(`python: ${step}`, { start: start - performance.timeOrigin, end: end - performance.timeOrigin });
    } catch { /* an engine without measure options: the profile only lacks them */ }
  }
}

function onMessage({ data }) {
  if (data.type === "progress") {
    // the worker is loading: however slow the network, this is not a failure
    watch();
    setStatus({ loaded: data.loaded, doing: data.doing });
  } else if (data.type === "ready") {
    clearTimeout(stall);
    measure(data.steps);
    setStatus({ state: "ready", loaded: size(), countArgs: data.countArgs });
    remember(RAN);
    for (const channel of [...waiting.keys()]) pump(channel);
  } else if (data.type === "ahead") {
    answers.keepComputed(data.json, data.answer);
  } else if (data.type === "failed") {
    fail(data.reason);
  } else if (data.type === "answer") {
    if (!answered) measure([["first answer", ...data.took]]);
    answered = true;
    const request = inFlight.get(data.channel);
    inFlight.delete(data.channel);
    if (request && request.id === data.id && newest.get(data.channel) === data.id) {
      request.answer(JSON.parse(data.json), "python");
    }
    // a newer request arrived meanwhile: send it now
    pump(data.channel);
  }
}

function fail(reason) {
  if (status.state === "failed") return;
  clearTimeout(stall);
  if (worker) worker.terminate();
  worker = null;
  setStatus({ state: "failed", reason, offline: navigator.onLine === false });
  for (const [channel, request] of inFlight) {
    inFlight.delete(channel);
    if (!waiting.has(channel)) waiting.set(channel, request);
  }
  for (const channel of [...waiting.keys()]) pump(channel); // each one hears why, once
}

/** An iPhone, an iPod or an iPad, whose navigator says "MacIntel" but has touch points (see
 * worker.js: Pyodide's own test cannot tell an iPad from a Mac, and a worker cannot either). */
const ios = () => /iPad|iPhone|iPod/.test(navigator.platform)
  || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);

function boot() {
  setStatus({ state: "loading", reason: "", offline: false, loaded: 0, doing: "download" });
  try {
    // named by the page's language: its messages (i18n.js) are the page's
    worker = new Worker(absolute(config.worker), { type: "module", name: document.documentElement.lang });
  } catch (error) {
    fail(String(error.message || error));
    return;
  }
  worker.onmessage = onMessage;
  worker.onerror = (event) => fail(event.message || t("runtime.no-worker"));
  watch();
  worker.postMessage({ type: "boot", indexURL: absolute(config.runtimeIndex),
    wheelURL: absolute(config.runtimeWheel), stallMs: stallMs(), ios: ios() });
}

// Start the runtime once. Offline without a saved runtime it says so at once; on a costly
// connection it waits for allow(). Later calls do nothing.
export async function start() {
  if (worker || booting || ["failed", "asking"].includes(status.state)) return;
  booting = true;
  const choice = await (await import("./boot.js")).decide(absolute(config.runtimeIndex), consented);
  const transfer = choice === "ask"
    ? await Promise.race([measureTransfer(), new Promise((done) => setTimeout(done, SIZING_MS, 0))]) : 0;
  booting = false;
  if (worker || status.state !== "idle") return;
  if (choice === "offline") {
    setStatus({ state: "failed", reason: "offline", offline: true });
    for (const channel of [...waiting.keys()]) pump(channel);
  } else if (choice === "ask") {
    setStatus({ state: "asking", transfer });
  } else {
    boot();
  }
}

// A page left while Python is still starting may be kept by the browser, frozen, for Back to
// return to. Firefox then holds the next page's runtime behind the frozen ones, still
// compiling: after three live pages left that way in quick succession, the next page's Python
// never became ready. So a start not yet finished ends with the page; Back starts it again.
// (A Python that is ready stays: Back finds it ready.)
addEventListener("pagehide", () => {
  if (!worker || status.state !== "loading") return;
  worker.terminate();
  worker = null;
  clearTimeout(stall);
  for (const [channel, request] of inFlight) { // asked again once it is ready
    inFlight.delete(channel);
    if (!waiting.has(channel)) waiting.set(channel, request);
  }
  setStatus({ state: "idle", loaded: 0 });
  stopped = true;
});
addEventListener("pageshow", (event) => {
  if (event.persisted && stopped) {
    stopped = false;
    start();
  }
});

/** The reader agreed to the download (or asked to try again): start now. */
export function allow() {
  consented = true;
  remember(CONSENT);
  if (worker) return;
  if (["asking", "failed"].includes(status.state)) setStatus({ state: "idle" });
  start();
}

/** Call listener now and whenever the runtime's status changes; returns an unsubscribe. */
export function onStatus(listener) {
  listeners.add(listener);
  listener(status);
  return () => listeners.delete(listener);
}

function route(channel, id, json, answer, onWait) {
  // a newer request replaced it
  if (newest.get(channel) !== id) return;
  const known = answers.lookup(json);
  if (known) {
    answer(known, "table");
    return;
  }
  onWait?.();
  waiting.set(channel, { id, json, answer });
  // a reader's action before the runtime loads starts it at once
  start();
  pump(channel);
}

// Send a request on a channel; answer(json, source) is called only if it is still the
// newest, with source "table" (precomputed), "python" or "failed"; onWait(), if given, once no
// table holds it and it waits for Python.
export function request(channel, payload, answer, onWait) {
  const json = answers.canonical(payload); // one text per state: warm() sends the same
  const id = nextId++;
  newest.set(channel, id);
  waiting.delete(channel);
  const known = answers.lookup(json);
  const computed = known ? undefined : answers.takeComputed(json);
  if (known) answer(known, "table"); // drawn within this frame
  else if (computed) answer(computed, "python"); // as Python answered it ahead: this frame too
  else if (answers.loading()) answers.settled().then(() => route(channel, id, json, answer, onWait));
  else route(channel, id, json, answer, onWait);
}

/** Have Python compute, while it has nothing else to do, the answers to requests the reader
 * may make next (the states one click away that no table holds): each comes back to be kept
 * here by its text (answers.keepComputed), so such a click is answered in its own task. A
 * later call replaces the list; a reader's request always goes first. */
export function warm(payloads) {
  if (!worker || status.state !== "ready") return;
  const jsons = payloads.map((payload) => answers.canonical(payload))
    .filter((json) => !answers.has(json) && !answers.hasComputed(json));
  worker.postMessage({ type: "warm", jsons });
}

/** Forget a channel's requests: an answer still on its way is dropped (its page is gone). */
export function cancel(channel) {
  newest.delete(channel);
  waiting.delete(channel);
}

// Another page of the visit (an embed of the site beside this one on a course page, say) got
// the go-ahead: it holds here too.
addEventListener("storage", (event) => {
  if (event.key === CONSENT && event.newValue === "yes" && status.state === "asking") allow();
});
