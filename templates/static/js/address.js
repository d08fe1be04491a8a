// The page's address follows the state on screen, so that a copied link reopens it. It is
// written just after the frame that shows the state: history.replaceState is slow in Chromium
// (about 10 ms on a page's first call), and no click should wait for it before it is drawn.

let waiting = null; // { path, query }: the address to write, once the frame is drawn
let timer = 0;

/** Write `query` (URLSearchParams text) into the address after the next frame. */
export function keep(query) {
  const first = waiting === null;
  waiting = { path: location.pathname, query };
  if (!first) return; // the write already asked for takes the newest state
  requestAnimationFrame(() => {
    const channel = new MessageChannel(); // runs once the frame's paint is done
    channel.port1.onmessage = flush;
    channel.port2.postMessage(0);
  });
  timer = setTimeout(flush, 100); // a hidden tab draws no frames
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
