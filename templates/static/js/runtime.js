// The page's side of the Python runtime: start the worker, report status, route requests.
// Requests are JSON in, JSON out. Per channel only the newest request is sent or answered.

const BOOT_TIMEOUT_MS = 30000;
const config = document.body.dataset;
let worker = null;
let status = { state: "idle", reason: "" };
const statusListeners = new Set();
const latest = new Map(); // channel -> { id, json, answer } waiting to be sent
const inFlight = new Map(); // channel -> id being computed
let nextId = 1;

function setStatus(state, reason = "") {
  status = { state, reason };
  for (const listener of statusListeners) listener(status);
}

function absolute(path) {
  return new URL(path, document.baseURI).href;
}

function pump(channel) {
  const waiting = latest.get(channel);
  if (!waiting || inFlight.has(channel) || status.state !== "ready") return;
  latest.delete(channel);
  inFlight.set(channel, waiting);
  worker.postMessage({ type: "request", id: waiting.id, channel, json: waiting.json });
}

function onMessage({ data }) {
  if (data.type === "ready") {
    setStatus("ready");
    for (const channel of latest.keys()) pump(channel);
  } else if (data.type === "failed") {
    fail(data.reason);
  } else if (data.type === "answer") {
    const request = inFlight.get(data.channel);
    inFlight.delete(data.channel);
    if (!latest.has(data.channel) && request && request.id === data.id) {
      request.answer(JSON.parse(data.json)); // the newest request: draw it
    }
    pump(data.channel); // a newer request arrived meanwhile: send it now
  }
}

function fail(reason) {
  if (status.state === "failed") return;
  if (worker) worker.terminate();
  setStatus("failed", reason);
}

/** Start the runtime once; later calls do nothing. */
export function start() {
  if (worker) return;
  setStatus("loading");
  try {
    worker = new Worker(absolute(config.worker), { type: "module" });
  } catch (error) {
    fail(String(error.message || error));
    return;
  }
  worker.onmessage = onMessage;
  worker.onerror = (event) => fail(event.message || "the runtime's worker could not start");
  const timer = setTimeout(() => fail(`it did not start within ${BOOT_TIMEOUT_MS / 1000} s`),
    BOOT_TIMEOUT_MS);
  statusListeners.add(({ state }) => state !== "loading" && clearTimeout(timer));
  worker.postMessage({
    type: "boot",
    indexURL: absolute(config.runtimeIndex),
    wheelURL: absolute(config.runtimeWheel),
  });
}

/** Call listener now and whenever the runtime's status changes. */
export function onStatus(listener) {
  statusListeners.add(listener);
  listener(status);
}

/** Send a request on a channel; answer(json) is called only if it is still the newest. */
export function request(channel, payload, answer) {
  latest.set(channel, { id: nextId++, json: JSON.stringify(payload), answer });
  start(); // a reader's action before the runtime loads starts it at once
  pump(channel);
}
