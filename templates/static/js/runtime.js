// The page's side of the Python runtime: start the worker, report status, route requests.
// Requests are JSON in, JSON out. Per channel only the newest request is sent or answered.

const BOOT_TIMEOUT_MS = 90000; // the first visit downloads about 16 MB: allow a slow network
const config = document.body.dataset;
let worker = null;
let status = { state: "idle", reason: "" };
const statusListeners = new Set();
const latest = new Map(); // channel -> { id, json, answer } waiting to be sent
const inFlight = new Map(); // channel -> the request being computed
let nextId = 1;

function setStatus(state, reason = "") {
  status = { state, reason };
  for (const listener of statusListeners) listener(status);
}

function absolute(path) {
  return new URL(path, document.baseURI).href;
}

/** The answer every request gets once Python cannot run here. */
function failure() {
  const message = `Python could not start here (${status.reason}), so this cannot be recomputed.`;
  return { ok: false, errors: [{ field: null, message }] };
}

function pump(channel) {
  const waiting = latest.get(channel);
  if (!waiting || inFlight.has(channel)) return;
  if (status.state === "failed") {
    latest.delete(channel);
    waiting.answer(failure());
    return;
  }
  if (status.state !== "ready") return;
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
  for (const [channel, request] of inFlight) {
    inFlight.delete(channel);
    if (!latest.has(channel)) latest.set(channel, request);
  }
  for (const channel of [...latest.keys()]) pump(channel); // each one hears why, once
}

/** Start the runtime once; later calls do nothing. */
export function start() {
  if (worker || status.state === "failed") return;
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
