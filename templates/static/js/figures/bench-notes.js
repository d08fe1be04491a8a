//# allFunctionsCalledOnLoad
// What the bench's controls say about an answer beside its numbers: a field the answer left
// as it was, a sentence typed but not used yet, and the query a new sentence moved. Each
// returns text; the drawing's module writes it (the controls' one writer).

import { $ } from "../dom.js";
import { t } from "../i18n.js";

// A field the reader left invalid (aria-invalid) whose text an answer replaces: the answer was
// computed from the last value that could be, as the field now shows, and its message says so
// rather than vanish with the typed text.
const KEPT = { // field: what the answer puts in it, and what to say then
  temperature: [(data) => data.temperature.text,
    (typed, data) => t("bench.t-kept", { t: data.temperature.text, typed })],
  sentence: [(data) => data.sentence.text,
    () => t("bench.sentence-kept")],
};

export function dropped(root, data, controls = ".bench-controls") {
  return Object.entries(KEPT).flatMap(([field, [shown, say]]) => {
    const input = $(root, `${controls} [name="${field}"][aria-invalid="true"]`);
    const typed = input && input !== document.activeElement ? input.value.trim() : null;
    return typed !== null && typed !== shown(data) ? [{ field, message: say(typed, data) }] : [];
  });
}

/** A sentence typed but not used yet (no Enter, no "Use sentence"), beside an answer for
 * another state: it stays in its box, and the message says that the bench does not show it. */
export function unused(root, data) {
  const box = $(root, '.bench-controls [name="sentence"][data-typed]');
  if (!box) return [];
  if (box.value.trim().split(/\s+/).join(" ") === data.sentence.text) {
    delete box.dataset.typed; // typed back to the sentence in use
    return [];
  }
  return [{ field: "sentence", message: t("bench.not-used") }];
}

/** "Use sentence" was pressed with `state` on the bench: remember its sentence and query word,
 * so that the answer can say where the query went. */
export function sentenceSent(store, state) {
  const words = state.sentence.split(" ");
  store.sentenceSent = { sentence: state.sentence, word: words[state.query] };
}

/** The answer to a new sentence puts the query where Python puts it (the first pronoun, or
 * the last word), not on the word the reader chose before: say so, in words, beside the box.
 * Only the first answer after "Use sentence" says it; "" for any other. */
export function queryNote(store, answer) {
  const sent = store.sentenceSent;
  if (!sent) return "";
  sent.answer ??= answer; // every figure of the group asks, for the same answer
  if (sent.answer !== answer) {
    store.sentenceSent = null;
    return "";
  }
  if (!answer.ok) return "";
  const { state, query } = answer.data;
  if (state.sentence === sent.sentence || query.word === sent.word) return "";
  return t("bench.query-moved", { now: query.word, was: sent.word });
}
