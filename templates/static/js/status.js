// What a live figure says about Python: one pure function from the runtime's status and the
// figure's own state (a request waiting, where the last answer came from) to plain words,
// and the status line, button and top notice that show them (page.js loads this after paint).

import * as runtime from "./runtime.js";

// a ready runtime answering later than this says that it is computing
const SLOW_MS = 250;
const slowMs = () => Number(document.body.dataset.runtimeSlow || SLOW_MS); // tests may set it
const MB = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

// @param {{state: string, reason: string, offline: boolean, loaded: number}} runtime
// @param {{pending: boolean, source: string | null, stale: boolean, size: number}} figure -
//   stale: the last input could not be computed; size in bytes
// @returns {{text: string, action: string | null, label: string}} action: "allow" | "retry"
export function describe(runtime, { pending, source, stale, size }) {
  const download = size ? `a one-time download of ${MB(size)}` : "a large one-time download";
  const progress = size ? ` (${(Math.min(runtime.loaded, size) / 1e6).toFixed(1)} of ${MB(size)})` : "";
  const built = "computed when the site was built, by the same Python code";
  switch (runtime.state) {
    case "asking":
      return {
        text: pending ? `This state needs Python, ${download}: load it to compute this state.`
          : `The figures run Python in your browser, ${download}. Until you load it, clicks on ` +
            `nearby states are answered with values ${built}.`,
        action: "allow", label: size ? `Load Python (${MB(size)})` : "Load Python",
      };
    case "loading":
      return {
        text: pending ? `Python is still loading${progress}: it will compute this state as soon as it is ready.`
          : `Loading Python in your browser${progress}… Until then, the figure shows values ${built}.`,
        action: null, label: "",
      };
    case "ready":
      return {
        text: stale ? "Live: Python in your browser is ready, but this input cannot be computed; " +
            "the numbers shown are for the last one that could."
          : source === "python" ? "Live: Python in your browser computed this state."
          : source === "table" ? `Live: this state was ${built}; Python in your browser computes any other.`
            : "Live: Python in your browser computes every number you see.",
        action: null, label: "",
      };
    case "failed":
      return {
        text: runtime.offline
          ? "You are offline, and Python was never saved on this device: it is saved the first " +
            "time a page with a live figure loads online. The figure shows the values computed " +
            "when the site was built; nearby states still answer."
          : `Python could not start here (${runtime.reason}). The figure shows the values ` +
            "computed when the site was built.",
        action: "retry", label: "Try again",
      };
    default:
      return { text: "", action: null, label: "" };
  }
}

/** Draw a figure group's status line, its button and, while it waits, a notice at its top. */
export function attach(view, root, session) {
  const line = root.querySelector(".runtime-status");
  const button = Object.assign(document.createElement("button"),
    { type: "button", className: "runtime-action", hidden: true });
  line.after(button);
  const top = Object.assign(document.createElement("p"), { className: "figure-notice", hidden: true });
  top.setAttribute("aria-hidden", "true"); // the status line below says it to screen readers
  root.querySelector(".fig-title")?.after(top);
  let last = { state: "idle" };
  let slow = 0; // the timer that shows a ready runtime's wait, if the answer is slow to come
  const showWait = (waiting, text, status) => {
    const hide = !waiting || !text;
    if (top.hidden !== hide) top.hidden = hide;
    const notice = waiting ? (view.link ? "Opening the state from your link. " : "") + text : "";
    if (top.textContent !== notice) top.textContent = notice;
    const dim = waiting && status.state !== "failed";
    // only when it changes: the class restyles every part of the figure (~2,000 at 40 words)
    for (const r of view.roots) if (r.classList.contains("is-waiting") !== dim) r.classList.toggle("is-waiting", dim);
  };
  view.draw = (status = last) => {
    last = status;
    const { text, action, label } = describe(status, { ...view, size: runtime.size() });
    if (line.dataset.state !== status.state) line.dataset.state = status.state;
    if (line.textContent !== text) line.textContent = text;
    if (button.hidden !== !action) button.hidden = !action;
    if (button.textContent !== label) button.textContent = label;
    const waiting = view.link || view.pending;
    clearTimeout(slow);
    // Python is ready and answers within a frame or two: dim the figure only if it does not
    // (a dim-undim flash per click would cost two restyles of the whole figure, and flicker)
    if (waiting && !view.link && status.state === "ready") slow = setTimeout(() => showWait(true, text, status), slowMs());
    else showWait(waiting, text, status);
  };
  button.addEventListener("click", () => runtime.allow());
  session.teardown.push(runtime.onStatus((status) => view.draw(status)));
}
