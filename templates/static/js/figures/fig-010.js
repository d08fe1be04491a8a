//# allFunctionsCalledOnLoad
// FIG-010, the same steps in a trained layer: it follows the sentence and the word of the layer
// figure above it (their shared store). The build drew the bench's sentence; for the reader's
// own, Python (attention/figures/fig_010.py) runs MiniLM's first layer once the reader asks,
// as the weights are a download of their own. A word followed is a column of an answer already
// here: drawn without asking Python.

import { $, markStale, setHidden, setText } from "../dom.js";

const all = (root, selector) => [...root.querySelectorAll(selector)];

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
  setText($(root, '[data-bind="toy-heads"]'), data.heads.toy.map((h, k) => `${data.heads.toy_names[k]} ${h[i].text}`).join(", "));
  setText($(root, '[data-bind="trained-heads"]'), data.heads.trained.map((h) => h[i]).join(", "));
  setText($(root, '[data-bind="ratio-toy"]'), data.ratio.toy);
  setText($(root, '[data-bind="ratio-trained"]'), data.ratio.trained);
}

export function mount(root, store) {
  const built = JSON.parse(root.dataset.sizes);
  const known = new Map([[built.sentence, built]]); // answers by sentence, for this visit
  const ask = $(root, '[data-bind="ask"]');
  const status = $(root, '[data-bind="ask-status"]');
  let asked = false; // the reader has asked for the trained layer on their own sentences
  let shown = { sentence: built.sentence, focus: built.word.index };

  const draw = () => {
    const data = known.get(shown.sentence);
    markStale(root, !data);
    setHidden(ask, Boolean(data) || asked);
    if (data) {
      setText(status, "");
      render(root, data, shown.focus);
      return;
    }
    setText($(root, '[data-bind="ask-why"]'), `The lengths below are for “${$(root, '[data-bind="sentence"]').textContent}”, not for your sentence, “${shown.sentence}”.`);
    if (asked) compute(shown.sentence);
  };

  const compute = (sentence) => {
    setHidden(ask, false);
    setHidden($(root, '[data-bind="ask-button"]'), true);
    setText(status, `Running the trained layer on “${sentence}”…`);
    store.aside({ figure: "fig-010", sentence }, (reply) => {
      if (reply.ok) known.set(reply.data.sentence, reply.data);
      if (sentence !== shown.sentence) return;
      if (reply.ok) return draw();
      setHidden($(root, '[data-bind="ask-button"]'), false);
      asked = false;
      setText(status, reply.errors.map((e) => e.message).join(" "));
    });
  };

  $(root, '[data-bind="ask-button"]').addEventListener("click", () => {
    asked = true;
    compute(shown.sentence);
  });
  store.subscribe((state) => {
    const answer = state.answer;
    if (!answer?.ok || !answer.data.sentence) return; // a bad input: the last sentence stays
    shown = { sentence: answer.data.sentence.text, focus: answer.data.focus.index };
    draw();
  });
}
