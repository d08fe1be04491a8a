//# allFunctionsCalledOnLoad
// The page's address follows the state on screen, so that a copied link reopens it. It is
// written once the frame that shows the state is drawn and the page is idle:
// history.replaceState is slow in Chromium (about 10 ms on a page's first call), and neither
// a click's frame nor the work queued behind that frame should wait for it.

let waiting = null; // { path, query }: the address to write, once the frame is drawn
let timer = 0;
const whenIdle = window.requestIdleCallback
  ? (f) => requestIdleCallback(f, { timeout: 100 }) : (f) => setTimeout(f, 0);

/** Write `query` (URLSearchParams text) into the address of the page at `path` after the
 * next frame. A page already left keeps the address it had: an answer for one of its figures
 * may arrive once the next page's address is shown, and must not be written into that. */
export function keep(query, path) {
  if (location.pathname !== path) return;
  const first = waiting === null;
  waiting = { path, query };
  if (!first) return; // the write already asked for takes the newest state
  // after the frame, once the page is idle: never before work that is waiting to be drawn
  requestAnimationFrame(() => whenIdle(flush));
  timer = setTimeout(flush, 200); // a hidden tab draws no frames
}

/** Write the waiting address now (before anything reads location, or the page goes). */
export function flush() {
  clearTimeout(timer);
  if (waiting === null) return;
  const { path, query } = waiting;
  waiting = null;
  if (location.pathname !== path) return; // another page has been swapped in meanwhile
  history.replaceState(history.state, "", withQuery(query));
  dispatchEvent(new CustomEvent("attention-bench:address")); // the link builder follows it (builder.js)
}

/** This page's address with `query` as its search, whole: a path alone would be read as
 * another host when it begins "//" (http://host//bench/), and the history API refuses that. */
export function withQuery(query) {
  const url = new URL(location.href);
  url.search = query;
  return url.href;
}

/** A navigation that starts while a write waits: the write belongs to the entry being left
 * (Back returns to what the reader last saw), and made once the navigation is under way it
 * would abort it (a history API call cancels the navigation in progress). So stop the
 * navigation, write, and start it again. One that cannot be stopped goes without the write. */
function writeFirst(event) {
  if (waiting === null || event.hashChange || event.formData || event.downloadRequest !== null) return;
  if (!event.cancelable) {
    clearTimeout(timer);
    waiting = null;
    return;
  }
  event.preventDefault();
  const { navigationType: type, destination, info } = event;
  flush();
  if (type === "traverse") traverse(destination.key, info);
  else if (type === "reload") settled(navigation.reload({ info, state: destination.getState() }));
  else settled(navigation.navigate(destination.url, { history: type, info, state: destination.getState() }));
}

/** Start a stopped Back or Forward again. Just after Back (the browser's button or key) is
 * stopped, Chromium may answer "Invalid key" for an entry that is there: the browser has not
 * yet heard that its traversal was stopped. Ask again, a few times, a moment apart. */
function traverse(key, info, tries = 8) {
  settled(navigation.traverseTo(key, { info }), (error) => {
    const there = navigation.entries().some((entry) => entry.key === key);
    if (error.name === "InvalidStateError" && there && tries > 0) {
      setTimeout(() => traverse(key, info, tries - 1), 25);
    }
  });
}

/** A navigation started again may fail or be overtaken by the reader's next one: that is not
 * an error on the page (an unhandled rejection). */
function settled({ committed, finished }, failed = () => {}) {
  committed.catch(failed);
  finished.catch(() => {}); // the same failure, or a handler's (nav.js then loads the page in full)
}

addEventListener("pagehide", flush);
// (capture: before nav.js, which then leaves the stopped navigation alone)
if (window.navigation) navigation.addEventListener("navigate", writeFirst, { capture: true });
