//# allFunctionsCalledOnLoad
// Predict, then reveal, on the bench: the reader picks an answer before the explanation shows.
// Questions, choices, answers and explanations come from Python (attention.quiz) for the
// bench's current state; this module only asks for them and places them. The build wrote those
// of the page's first state into the page, so they work at once, before Python (and without
// it); those of states one click away are in the precomputed tables.

import { $, setAttr, setClass, setText } from "../dom.js";
import { writeNear } from "../near.js";
import * as runtime from "../runtime.js";
import { t } from "../i18n.js";

/** Make `parent` hold n copies of its first child (the markup the build wrote). */
function ensureChildren(parent, n) {
  while (parent.children.length > n) parent.lastElementChild.remove();
  while (parent.children.length < n) parent.append(parent.firstElementChild.cloneNode(true));
}

// A question is the same while its prompt, its answer and its choices are (another sentence can
// keep the first two and change the words to choose from).
const key = (q) => JSON.stringify([q.prompt, q.answer, q.choices]);

/** Put one question into its list item; keep the reader's choice if the question is unchanged. */
function renderQuestion(li, q, index, keep) {
  li.dataset.id = q.id;
  const prompt = $(li, '[data-quiz="prompt"]');
  prompt.id = `quiz-${index + 1}`;
  setText(prompt, q.prompt);
  const choices = $(li, '[data-quiz="choices"]');
  setAttr(choices, "aria-labelledby", prompt.id);
  choices.hidden = false;
  if (!keep) {
    ensureChildren(choices, q.choices.length);
    q.choices.forEach((c, k) => {
      const button = choices.children[k];
      button.dataset.choice = c.id;
      setText(button, c.label);
      setAttr(button, "aria-pressed", "false");
      button.className = "";
    });
    setText($(li, '[data-quiz="feedback"]'), "");
    $(li, '[data-quiz="reveal"]').hidden = true;
  }
  setText($(li, '[data-quiz="reveal"]'), q.explanation);
  li.question = q;
  li.key = key(q);
}

/** Draw the questions for a bench state. */
export function render(root, questions) {
  const list = $(root, '[data-quiz="list"]');
  list.classList.remove("is-waiting");
  ensureChildren(list, questions.length);
  questions.forEach((q, i) => {
    const li = list.children[i];
    renderQuestion(li, q, i, li.key === key(q));
  });
}

/** The questions the build wrote into the page, read back as Python gave them. */
function built(root) {
  return [...root.querySelectorAll(".quiz-question")].map((li) => ({
    id: li.dataset.id,
    prompt: $(li, '[data-quiz="prompt"]').textContent,
    choices: [...li.querySelectorAll("button[data-choice]")].map((b) => ({ id: b.dataset.choice, label: b.textContent })),
    answer: li.dataset.answer,
    explanation: $(li, '[data-quiz="reveal"]').textContent,
  }));
}

// What the quiz says while the questions of the bench's new state wait for Python.
const WAITING = {
  loading: t("quiz.loading"),
  asking: t("quiz.asking"),
  failed: t("quiz.failed"),
};

/** The reader chose: mark the choice, say whether it was right, reveal the explanation. */
function choose(li, button) {
  const q = li.question;
  for (const b of li.querySelectorAll("button[data-choice]")) {
    setAttr(b, "aria-pressed", String(b === button));
    setClass(b, "right", b.dataset.choice === q.answer);
  }
  const right = q.choices.find((c) => c.id === q.answer).label;
  setText($(li, '[data-quiz="feedback"]'), button.dataset.choice === q.answer
    ? t("quiz.right") : t("quiz.wrong", { right })); // quoted: a label may begin "the (word 0)"
  $(li, '[data-quiz="reveal"]').hidden = false;
}

export function mount(root, store) {
  const status = $(root, '[data-quiz="status"]');
  const list = $(root, '[data-quiz="list"]');
  let asked = root.dataset.state; // the state whose questions are on screen
  render(root, built(root)); // the page's own state: answerable at once
  let waiting = false; // the questions on screen are for another state than the bench's
  const say = (text) => setText(status, text);
  const load = (state) => {
    waiting = true;
    const { trained, ...bench } = state; // the trained head shown beside the bench does not change the questions
    runtime.request("quiz", { figure: "quiz", ...bench }, (answer) => {
      waiting = false;
      if (!answer.ok) {
        say(answer.errors.map((e) => e.message).join(" "));
        return;
      }
      say("");
      render(root, answer.data.questions);
    });
    // not answered at once (no table holds it): the old questions give way, and the quiz says why
    if (waiting) {
      list.classList.add("is-waiting");
      say(t("quiz.writing"));
    }
  };
  const stop = runtime.onStatus(({ state }) => { if (waiting && WAITING[state]) say(WAITING[state]); });

  root.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-choice]");
    const li = button && button.closest(".quiz-question");
    if (li && li.question && li.question.answer) choose(li, button);
  });

  store.subscribe((s) => { // the bench moved: ask for its questions (far off screen: later,
    // not in the frame that shows the bench's answer)
    if (!s.answer || !s.answer.ok) return;
    const state = JSON.stringify(s.answer.data.state);
    if (state === asked) return;
    asked = state;
    writeNear(list, () => load(s.answer.data.state));
  });
  return stop;
}
