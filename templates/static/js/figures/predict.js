//# allFunctionsCalledOnLoad
// Predict, then reveal: the reader commits to an answer, sees whether it was right, looks at
// the lab (now on the zero query), and only then gets the explanation.

import { html, setAttr } from "../dom.js";
import { t } from "../i18n.js";

const VERDICT = {
  true: t("predict.right"),
  false: t("predict.wrong"),
};
const NEXT = t("predict.next");

/** Is the address's #target inside the element (a link to a section in the explanation)? */
function targets(element) {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  return Boolean(target && element.contains(target));
}

export function mount(root, store) {
  const reveal = document.getElementById("zero-reveal");
  const choices = root.querySelector(".predict-choices");
  const feedback = root.querySelector(".predict-feedback");
  const output = document.querySelector(".lab-output") // the lab's;
  const open = () => { reveal.hidden = false; };
  // The explanation's heading takes the focus of a button that goes away (never <body>).
  const focusExplanation = () => {
    const heading = reveal.querySelector("h3");
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  };
  // Without JavaScript, or when a link leads into it, the explanation simply stays visible.
  if (!targets(reveal)) reveal.hidden = true;
  addEventListener("hashchange", function follow() {
    if (!root.isConnected) return removeEventListener("hashchange", follow); // another page now
    if (targets(reveal)) {
      open();
      document.getElementById(decodeURIComponent(location.hash.slice(1))).scrollIntoView();
    }
  });
  choices.hidden = false;
  choices.addEventListener("click", (event) => {
    const guess = event.target.closest("button[data-guess]");
    if (!guess || guess.getAttribute("aria-disabled") === "true") return;
    for (const button of choices.querySelectorAll("button")) {
      setAttr(button, "aria-pressed", button === guess);
      // one prediction: it is locked in, and the pressed button keeps the keyboard's focus
      setAttr(button, "aria-disabled", true);
    }
    const right = guess.dataset.guess === root.dataset.answer;
    const verdict = html("strong", { class: right ? "right" : "wrong" }, VERDICT[right]);
    const now = html("button", { type: "button", class: "reveal-now" }, t("predict.now"));
    now.addEventListener("click", () => {
      open();
      reveal.querySelector("h3")?.scrollIntoView();
      focusExplanation();
      now.remove();
    });
    feedback.replaceChildren(verdict, " ", NEXT, " ", now);
    store.showQuery?.(["0", "0"]); // the lab, in the same group (data-group="lab")
    if (output) {
      const seen = new IntersectionObserver((entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        seen.disconnect();
        open();
        if (document.activeElement === now) focusExplanation();
        now.remove();
      });
      // Start watching once the lab is below the fold or the reader scrolls to it.
      setTimeout(() => seen.observe(output), 600);
    }
  });
}
