// The page's address follows the state on screen, so that a copied link reopens it. It is
// written once the frame that shows the state is drawn and the page is idle:
// history.replaceState is slow in Chromium (about 10 ms on a page's first call), and neither
// a click's frame nor the work queued behind that frame should wait for it.

let waiting = null; // { path, query }: the address to write, once the frame is drawn
let timer = 0;
const whenIdle = window.requestIdleCallback
  ? (f) => requestIdleCallback(f, { timeout: 100 }) : (f) => setTimeout(f, 0);

/** Write `query` (URLSearchParams text) into the address after the next frame. */
export function keep(query) {
  const first = waiting === null;
  waiting = { path: location.pathname, query };
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
  history.replaceState(history.state, "", `${path}${query ? `?${query}` : ""}${location.hash}`);
}

addEventListener("pagehide", flush);
