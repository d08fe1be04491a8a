//# allFunctionsCalledOnLoad
// FIG-010, the same steps in a trained layer: it follows the sentence and the word of the layer
// figure above it (their shared store). The build drew the bench's sentence; for the reader's
// own, Python (attention/figures/fig_010.py) runs MiniLM's first layer once the reader asks,
// as the weights are a download of their own. A word followed is a column of an answer already
// here: drawn without asking Python.

import { $, html, markStale, setAttr, setClass, setHidden, setText } from "../dom.js";
import { t } from "../i18n.js";

const all = (root, selector) => [...root.querySelectorAll(selector)];

/** Write a list of heads' writes, each "name length" kept on one line, comma-separated. */
function writeHeads(cell, items) {
  const text = items.join(", ");
  if (cell.textContent === text) return;
  cell.replaceChildren(...items.flatMap((item, k) => [...(k ? [", "] : []), html("span", { class: "head-write" }, item)]));
}

/** Draw one word's column of an answer from attention/figures/fig_010.py. */
export function render(root, data, focus) {
  const i = focus < data.words.length ? focus : data.word.index;
  for (const el of all(root, '[data-bind="word"]')) setText(el, data.words[i]);
  for (const el of all(root, '[data-bind="count"]')) setText(el, data.count);
  setText($(root, '[data-bind="sentence"]'), data.sentence);
  for (const step of data.steps) {
    setText($(root, `[data-toy="${step.key}"]`), step.toy[i].text);
    setText($(root, `[data-trained="${step.key}"]`), step.trained[i]);
  }
  writeHeads($(root, '[data-bind="toy-heads"]'), data.heads.toy.map((h, k) => `${data.heads.toy_names[k]} ${h[i].text}`));
  writeHeads($(root, '[data-bind="trained-heads"]'), data.heads.trained.map((h, k) => `#${k + 1} ${h[i]}`));
  setText($(root, '[data-bind="ratio-toy"]'), data.ratio.toy);
  setText($(root, '[data-bind="ratio-trained"]'), data.ratio.trained);
}

export function mount(root, store) {
  const built = JSON.parse(root.dataset.sizes);
  const known = new Map([[built.sentence, built]]); // answers by sentence, for this visit
  const ask = $(root, '[data-bind="ask"]');
  const button = $(root, '[data-bind="ask-button"]');
  const status = $(root, '[data-bind="ask-status"]');
  let asked = false; // the reader has asked for the trained layer on their own sentences
  let shown = { sentence: built.sentence, focus: built.word.index };

  const say = (text, error = false) => {
    setText(status, text);
    setClass(status, "is-error", error);
  };
  let running = false;
  const busy = (on) => { // a pressed button stays where it is and keeps the focus (a disabled one
    running = on; // loses it), said to be unusable meanwhile
    setAttr(button, "aria-disabled", String(on));
  };

  const draw = () => {
    const data = known.get(shown.sentence);
    markStale(root, !data);
    if (data) {
      const hadFocus = ask.contains(document.activeElement);
      setHidden(ask, true);
      say("");
      render(root, data, shown.focus);
      if (hadFocus) { // not lost to the page when the button goes: on the figure, which it names
        setAttr(root, "tabindex", "-1");
        root.focus({ preventScroll: true });
      }
      return;
    }
    setHidden(ask, false);
    setText($(root, '[data-bind="ask-why"]'), t("trained-layer.other-sentence", { drawn: $(root, '[data-bind="sentence"]').textContent, yours: shown.sentence }));
    if (asked) compute(shown.sentence);
  };

  const compute = (sentence) => {
    busy(true);
    say(t("trained-layer.running", { sentence }));
    store.aside({ figure: "fig-010", sentence }, (reply) => {
      if (reply.ok) known.set(reply.data.sentence, reply.data);
      if (sentence !== shown.sentence) return;
      busy(false);
      if (reply.ok) {
        setText($(root, '[data-bind="origin"]'), t("trained-layer.has-weights"));
        return draw();
      }
      asked = false;
      say(reply.errors.map((e) => e.message).join(" "), true);
    });
  };

  button.addEventListener("click", () => {
    if (running) return;
    asked = true;
    compute(shown.sentence);
  });
  const englishOnly = $(root, '[data-bind="english-only"]');
  store.subscribe((state) => {
    const answer = state.answer;
    if (!answer?.ok || !answer.data.sentence) return; // a bad input: the last sentence stays
    // MiniLM reads English: another language's sentence leaves it on its own, and says so
    const follows = answer.data.sentence.english;
    setHidden(englishOnly, follows);
    shown = follows ? { sentence: answer.data.sentence.text, focus: answer.data.focus.index }
      : { sentence: built.sentence, focus: built.word.index };
    draw();
  });
}
