// What a live figure says about Python: one pure function from the runtime's status and the
// figure's own state (a request waiting, where the last answer came from) to plain words,
// and the status line, button and top notice that show them (page.js loads this after paint).

import { dropAttrs, html, setAttr, setClass, setHidden, setText } from "./dom.js";
import { number, t } from "./i18n.js";
import * as runtime from "./runtime.js";

// a ready runtime answering later than this says that it is computing
const SLOW_MS = 250;
const slowMs = () => Number(document.body.dataset.runtimeSlow || SLOW_MS); // tests may set it
// the loading start's step in a reader's words (runtime.js says where a stalled start stopped)
const { DOING } = runtime;
const MB = (bytes) => t("runtime.megabytes", { value: number(bytes / 1e6, 1) });

// @param {{state: string, reason: string, offline: boolean, loaded: number, transfer: number, doing: string}} runtime -
//   transfer: the download's bytes on this host's wire, once measured (0: not known); doing: the
//   start's step while loading (DOING)
// @param {{pending: boolean, source: string | null, stale: boolean, size: number}} figure -
//   stale: the last input could not be computed; size: the runtime's bytes, as the build counted
// @returns {{text: string, action: string | null, label: string}} action: "allow" | "retry"
export function describe(runtime, { pending, source, stale, size }) {
  // what this host sends (compressed where it compresses), once asked; till then, at most all
  const wire = runtime.transfer ? MB(runtime.transfer) : size ? t("runtime.up-to", { size: MB(size) }) : "";
  const download = wire ? t("runtime.download", { size: wire }) : t("runtime.download-unknown");
  // (a share: the bytes counted are unpacked ones, which a compressed download is not)
  const share = size ? `${Math.floor((100 * Math.min(runtime.loaded, size)) / size)} %` : "";
  const said = [share, DOING[runtime.doing]].filter(Boolean).join(", ");
  const progress = said ? ` (${said})` : "";
  const built = t("runtime.built");
  switch (runtime.state) {
    case "asking":
      return {
        text: pending ? t("runtime.asking-pending", { download }) : t("runtime.asking", { download, built }),
        action: "allow", label: wire ? t("runtime.load-size", { size: wire }) : t("runtime.load"),
      };
    case "loading":
      return {
        text: pending ? t("runtime.loading-pending", { progress }) : t("runtime.loading", { progress, built }),
        action: null, label: "",
      };
    case "ready":
      return {
        text: stale ? t("runtime.ready-stale")
          : source === "python" ? t("runtime.ready-python")
          // (not "Live:" beside numbers that are not Python's now: a reader read "Live" beside
          // "when the site was built" as a contradiction; where the numbers shown came from first)
          : source === "table" ? t("runtime.ready-table", { built })
            // (no answer yet: the page shows the build's numbers, which "computes every number
            // you see" claimed as Python's)
            : t("runtime.ready"),
        action: null, label: "",
      };
    case "failed":
      return {
        text: runtime.offline ? t("runtime.offline") : t("runtime.failed", { reason: runtime.reason }),
        action: "retry", label: t("runtime.retry"),
      };
    default:
      return { text: "", action: null, label: "" };
  }
}

/** Draw a figure group's status line, its button and, while it waits, a notice at its top
 * with a button of its own: a reader who must load Python (or try again) to see the state they
 * asked for finds what to press where they are, not at the figure's end. */
export function attach(view, root, session) {
  const line = root.querySelector(".runtime-status");
  const action = (name) => html("button", { type: "button", class: name, hidden: "" });
  const button = action("runtime-action");
  line.after(button);
  // The line says where the numbers shown came from, and its words change with each state the
  // reader picks (the build's table, or Python) and each step of a download: as a live region it
  // spoke after every change of the figure, beside the figure's own announcement. What a screen
  // reader needs is a change of Python's status (loading, ready, failed; a state that needs it):
  // that alone is said, once, in a live region of its own.
  dropAttrs(line, "role");
  const said = html("p", { class: "visually-hidden", role: "status" });
  button.after(said);
  let saidFor = null; // the status last said
  // (not a live region: the status line below says the same to screen readers, once)
  const words = html("p");
  const topButton = action("notice-action"); // the notice's own, styled as the status line's
  const top = html("div", { class: "figure-notice", hidden: "" }, [words, topButton]);
  root.querySelector(".fig-title")?.after(top);
  let last = { state: "idle" };
  let slow = 0; // the timer that shows a ready runtime's wait, if the answer is slow to come
  const showWait = (waiting, text, status, offer) => {
    const hide = !waiting || !text;
    setHidden(top, hide);
    setText(words, waiting ? (view.link ? t("runtime.opening-link") : "") + text : "");
    setHidden(topButton, hide || !offer.action);
    setText(topButton, offer.label);
    const dim = waiting && status.state !== "failed";
    // only when it changes: the class restyles every part of the figure (~2,000 at 40 words)
    for (const r of view.roots) setClass(r, "is-waiting", dim);
  };
  view.draw = (status = last) => {
    last = status;
    const { text, action, label } = describe(status, { ...view, size: runtime.size() });
    const offer = { action, label };
    setAttr(line, "data-state", status.state);
    setText(line, text);
    const news = `${status.state} ${status.state !== "ready" && view.pending}`;
    if (news !== saidFor) {
      saidFor = news;
      setText(said, text);
    }
    setHidden(button, !action);
    setText(button, label);
    const waiting = view.link || view.pending;
    clearTimeout(slow);
    // Python is ready and answers within a frame or two: dim the figure only if it does not
    // (a dim-undim flash per click would cost two restyles of the whole figure, and flicker)
    if (waiting && !view.link && status.state === "ready") slow = setTimeout(() => showWait(true, text, status, offer), slowMs());
    else showWait(waiting, text, status, offer);
  };
  for (const b of [button, topButton]) b.addEventListener("click", () => runtime.allow());
  session.teardown.push(runtime.onStatus((status) => view.draw(status)));
}
