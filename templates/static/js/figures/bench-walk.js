//# allFunctionsCalledOnLoad
// The guided walk through the bench's drawing: the six captions, shown one at a time, each
// lighting its part of the drawing. Without JavaScript they are a numbered list with the
// build's numbers; the drawing's module keeps every step's numbers current, and this module only
// chooses which step is shown, lights it and announces it (the step's words are Python's).

import { $, dropAttrs, glideSpan, headerRoom, headerShown, setAttr, setClass, setHidden, setText } from "../dom.js";
import { t } from "../i18n.js";

/** Wire the walk's buttons; returns what to call when a new answer is drawn. */
export function wireWalk(root) {
  const box = $(root, ".bench-walk");
  const controls = box && $(box, ".walk-controls");
  if (!controls) return null;
  setHidden(controls, false);
  setClass(root, "walk-ready", true); // each step's numbers show in the walk (and in the table)
  const steps = [...box.querySelectorAll(".bench-captions > li")];
  const start = $(controls, ".walk-start");
  const steer = $(controls, ".walk-steer");
  const drawing = $(root, ".bench-drawing");
  const said = $(root, '[data-bind="walk-said"]'); // outside the drawing's box: heard from afar
  let at = -1; // the step shown, or -1: every step, no walk
  const still = window.matchMedia("(prefers-reduced-motion: reduce)");

  // A step the reader moved to is brought into view with the part of the drawing it lights,
  // when the two fit on the screen together: on a wide screen the step's words sit beside
  // the drawing's top (the part alone left the words running past the screen's foot at
  // 1280 x 800); stacked, they sit under the drawing and the buttons (the words alone left
  // the part lit above the screen at 800 px, review 4). Moving down, or not at all, keeps the
  // header tucked away; moving up brings it down over the page. When the two are taller than
  // the room, the part alone on a wide screen; stacked, the part under the header with as
  // much of the words under it as the screen holds. A step already in view is left where it
  // is, and the focus stays on the button or key that moved it.
  // (A step's station is the class of the part it lights, as the styles' data-lit rules read it.)
  const wide = window.matchMedia("(min-width: 60rem)");
  const reveal = () => {
    if (at < 0) return;
    const behavior = still.matches ? "auto" : "smooth";
    const part = $(drawing, `.${steps[at].dataset.station}`).getBoundingClientRect();
    const words = steps[at].getBoundingClientRect();
    const [top, bottom] = [Math.min(part.top, words.top), Math.max(part.bottom, words.bottom)];
    const down = Math.max(0, bottom - innerHeight);
    if (top - down >= (down > 6 ? 0 : headerShown())) { if (down) glideSpan(top, bottom, behavior, 0); } // header.js's STEP
    else if (bottom - top <= innerHeight - headerRoom()) glideSpan(top, bottom, behavior);
    else if (wide.matches) glideSpan(part.top, part.bottom, behavior);
    else glideSpan(part.top, words.bottom, behavior); // from the part's top, the words under it
  };

  const show = (k, speak = true) => {
    at = k;
    const walking = k >= 0;
    setClass(root, "walking", walking);
    setHidden(steer, !walking);
    setText(start, walking ? t("bench.every-step") : t("bench.walk")); // its name says what it does: no toggle
    setClass(start, "quiet", walking); // while walking, Next is the main action
    steps.forEach((li, n) => setClass(li, "is-current", n === k));
    if (!walking) {
      dropAttrs(drawing, "data-lit");
      return;
    }
    setAttr(drawing, "data-lit", steps[k].dataset.station);
    const step = steps[k].dataset; // its words, as the build wrote them or the drawing's module since
    setText($(controls, '[data-bind="walk-where"]'), step.where);
    // at either end its button says it does nothing, but keeps the focus a `disabled` would drop
    setAttr($(controls, ".walk-prev"), "aria-disabled", String(k === 0));
    setAttr($(controls, ".walk-next"), "aria-disabled", String(k === steps.length - 1));
    if (speak) setText(said, step.said);
  };
  const move = (by) => {
    if (at < 0) return;
    const k = Math.min(Math.max(at + by, 0), steps.length - 1);
    if (k !== at) show(k);
    reveal();
  };
  start.addEventListener("click", () => { show(at < 0 ? 0 : -1); reveal(); });
  $(controls, ".walk-prev").addEventListener("click", () => move(-1));
  $(controls, ".walk-next").addEventListener("click", () => move(1));
  box.addEventListener("keydown", (event) => {
    if (at < 0 || event.target.closest("input, textarea")) return;
    const by = { ArrowRight: 1, ArrowDown: 1, PageDown: 1, ArrowLeft: -1, ArrowUp: -1, PageUp: -1 }[event.key];
    if (event.key === "Escape") show(-1);
    else if (event.key === "Home") { show(0); reveal(); }
    else if (event.key === "End") { show(steps.length - 1); reveal(); }
    else if (by) move(by);
    else return;
    event.preventDefault();
  });
  // A swipe across the shown step moves on or back, as the buttons do.
  let touch = null;
  box.addEventListener("touchstart", (event) => { touch = event.touches[0]; }, { passive: true });
  box.addEventListener("touchend", (event) => {
    const end = event.changedTouches[0];
    if (!touch || at < 0) return;
    const dx = end.clientX - touch.clientX;
    if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(end.clientY - touch.clientY)) move(dx < 0 ? 1 : -1);
    touch = null;
  }, { passive: true });
  // Reset gives the bench back as the page first showed it: every step, no walk (review 4:
  // the walk stayed at "Step 5 of 6").
  $(root, ".bench-reset")?.addEventListener("click", () => show(-1));
  // A new answer (another query, head or T): the step shown says its new numbers.
  return () => { if (at >= 0) show(at); };
}
