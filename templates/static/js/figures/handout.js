//# allFunctionsCalledOnLoad
// A class handout (handout/<figure id>/): the numbers and questions of the figure's state, as
// attention.handout computes them. The build wrote those of the opening state; for any other
// (the address's, or one the teacher sets in the figure) Python in the browser computes them,
// and until it has, they are marked as another state's, never shown as this one's.

import { bound, dropAttrs, part, setAttr, setClass, setHidden, setText, syncList } from "../dom.js";
import { t } from "../i18n.js";
import * as runtime from "../runtime.js";

/** Fill the handout's parts from attention.handout.view's data (the markup: _handout.html). */
export function render(root, data) {
  syncList(bound(root, "setting"), data.setting, () => part(root, "setting"), (item, s) => {
    setText(item.querySelector("dt"), s.name);
    setText(item.querySelector("dd"), s.text);
  });
  syncList(bound(root, "columns"), data.columns, () => part(root, "column"), setText);
  syncList(bound(root, "rows"), data.rows, () => part(root, "row"), (tr, cells) => {
    syncList(tr, cells, () => part(root, "cell"), setText);
  });
  setText(bound(root, "state-text"), data.state_text);
  setHidden(bound(root, "more"), !data.more);
  setText(bound(root, "more-count"), String(data.more));
  syncList(bound(root, "questions"), data.questions, () => part(root, "question"), (li, q) => {
    setText(li.querySelector(".handout-prompt"), q.prompt);
    syncList(li.querySelector(".handout-choices"), q.choices, () => part(root, "choice"),
      (choice, c) => setText(choice, c.label));
  });
  syncList(bound(root, "answers"), data.questions, () => part(root, "answer"), (li, q) => {
    setText(li.querySelector(".handout-right"), q.choices.find((c) => c.id === q.answer).label);
    setText(li.querySelector(".handout-why"), q.explanation);
  });
}

/** Say where the handout's numbers stand: "current", "waiting" for Python, or "failed". */
function say(root, state, text) {
  setAttr(root, "data-state", state);
  setClass(root, "is-stale", state !== "current");
  if (state === "waiting") setAttr(root, "aria-busy", "true");
  else dropAttrs(root, "aria-busy");
  setText(bound(root, "status"), text);
  // printing waits for the state's own numbers (paper prints the status alone until then)
  const button = document.querySelector('[data-bind="tools"] [data-bind="print"]');
  if (button) {
    setAttr(button, "aria-disabled", String(state !== "current"));
    setText(button, state === "current" ? t("handout.print") : t("handout.print-waiting"));
  }
}

// What the handout says while a state's numbers wait for Python, by the runtime's status: on a
// phone, Python waits for the reader's go-ahead, and "computing" would be untrue.
// (each key written out: the build finds the keys a module uses by reading it)
const waitingText = (status) => (status === "asking" ? t("handout.waiting-asking")
  : status === "ready" ? t("handout.waiting-ready") : t("handout.waiting-loading"));

/** Say that the numbers shown are another state's, and why (an answer's errors). */
const failed = (root, errors) =>
  say(root, "failed", t("handout.another", { why: errors.map((e) => e.message).join(" ") }));

/** The printed link to the chapter opens this state there (a teacher's printout led to the
 * chapter's opening state); on paper it is written out in full (page.js's data-href). */
function keepChapterLink(params) {
  const link = document.querySelector(".handout-from a");
  if (!link) return;
  const url = new URL(link.href);
  url.search = new URLSearchParams(params).toString();
  setAttr(link, "href", url.href);
  setAttr(link, "data-href", url.href);
}

export function mount(root, store) {
  const tools = document.querySelector('[data-bind="tools"]');
  if (tools) {
    setHidden(tools, false);
    bound(tools, "print").addEventListener("click", () => root.dataset.state === "current" && print());
  }
  let shown = root.dataset.url; // the state whose numbers are on the page, as text (the build's)
  let asked = shown; // the state last asked for
  let status = "idle"; // the runtime's
  const wait = () => say(root, "waiting", waitingText(status));
  // (the listener is the page's as long as the handout is: a handout page is never swapped)
  runtime.onStatus((now) => {
    status = now.state;
    if (root.dataset.state === "waiting") wait();
  });
  // A link's state is opened by the figure: until its answer comes, the build's numbers are
  // another state's, and the handout says so (it may wait for Python)
  if (location.search) wait();
  else setAttr(root, "data-state", "current");
  store.subscribe((state) => {
    const answer = state.answer;
    if (answer && !answer.ok) { // an input that cannot be computed, or no Python here
      asked = null; // whatever comes next is asked for
      failed(root, answer.errors);
      return;
    }
    if (!answer || !answer.url) return;
    const url = JSON.stringify(answer.url);
    if (url === shown) {
      asked = url;
      say(root, "current", ""); // the link's state is the one shown (the opening state)
      return;
    }
    if (url === asked) return; // asked already: its answer is coming
    asked = url;
    wait();
    store.aside({ figure: "handout", of: root.dataset.of, url: answer.url }, (reply) => {
      if (asked !== url) return; // a newer state was asked for meanwhile
      if (reply.ok) {
        render(root, reply.data);
        keepChapterLink(reply.data.url);
        shown = url;
        say(root, "current", "");
      } else {
        failed(root, reply.errors);
      }
    });
  });
}
