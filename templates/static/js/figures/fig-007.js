//# allFunctionsCalledOnLoad
// FIG-007, the heads side by side: each card says where the current query's unit goes under
// its head, and its "Show on the bench" button puts that head on the bench (bench.js asks
// Python) and brings the drawing into view.

import { ask, mountBench, STATE } from "./bench.js";
import { $, glide, setAttr, setClass, setText } from "../dom.js";

export { STATE };

/** "Show on the bench": switch the head, then bring the drawing into view and focus. */
function wireHeads(root, store) {
  for (const button of root.querySelectorAll(".use-head")) {
    button.hidden = false;
    button.addEventListener("click", () => {
      ask(store, { head: button.dataset.head });
      // the drawing's figure: the one with the head line, if it is not this one
      const line = [...document.querySelectorAll(".bench-head-line")].find((l) => !root.contains(l));
      if (!line) return;
      const bench = line.closest(".figure");
      line.tabIndex = -1;
      const calm = matchMedia("(prefers-reduced-motion: reduce)").matches;
      glide(bench, { block: "start", behavior: calm ? "auto" : "smooth" });
      line.focus({ preventScroll: true });
    });
  }
}

function renderHeads(root, data) {
  for (const card of root.querySelectorAll(".head-card")) {
    const current = card.dataset.head === data.head.name;
    setClass(card, "is-current", current);
    setAttr($(card, ".use-head"), "aria-pressed", String(current));
    const here = data.heads_here.find((h) => h.name === card.dataset.head);
    const slot = $(card, "[data-here]");
    if (here && slot) setText(slot, here.here);
  }
}

export function mount(root, store) {
  return mountBench(root, store, {
    wire() { wireHeads(root, store); },
    draw(data) { renderHeads(root, data); },
  });
}
