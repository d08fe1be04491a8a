//# allFunctionsCalledOnLoad
// What is off screen is brought up to date a moment later. A click's frame then restyles,
// lays out and paints what a reader can see, not a long table's every row and a drawing
// scrolled out of sight. The rest is written when the page is idle (within ~120 ms), or when
// it comes on screen, whichever is first. What is written later is the same
// render with the same answer: the page ends up exactly as if all had been written at once.
// While a write waits, the region it belongs to says aria-busy: its words are about to change
// (a screen reader waits for them), and a test reading the whole page waits until none does.

import { dropAttrs, setAttr } from "./dom.js";

/** Call f(deadline) in the page's next idle moment, within ~120 ms (WebKit has no
 * requestIdleCallback: a moment after the frame, and no deadline). */
export const whenIdle = window.requestIdleCallback
  ? (f) => requestIdleCallback(f, { timeout: 120 }) : (f) => setTimeout(() => f(null), 40);
// Near: on the screen. The rest is written in the first idle moment after the click's frame
// (tens of ms), before a reader can scroll to it; a row scrolled to sooner is written in the
// frame after the one it first shows in. (A margin of a quarter screen wrote 25 of 40 rows at 720 px, not 17.)
const NEAR = "0px";
const CHUNK_MS = 4; // without an idle deadline, stop after this much and go on later

// Every write waiting, in the order it was asked for: element → [its write, its busy region].
const pending = new Map();
const busy = new Map(); // region → how many of its writes wait
let asked = false;

function hold(element, write, region) {
  if (pending.has(element)) release(element);
  pending.set(element, [write, region]);
  busy.set(region, (busy.get(region) || 0) + 1);
  setAttr(region, "aria-busy", "true");
}

/** Take element's waiting write off the list (to run it, or because a newer one replaces it). */
function release(element) {
  const [write, region] = pending.get(element);
  pending.delete(element);
  const left = busy.get(region) - 1;
  if (left > 0) busy.set(region, left);
  else {
    busy.delete(region);
    dropAttrs(region, "aria-busy");
  }
  return write;
}

function runIdle(deadline) {
  asked = false;
  const start = performance.now();
  for (const element of [...pending.keys()]) {
    const left = deadline ? deadline.timeRemaining() > 1 || deadline.didTimeout : performance.now() - start < CHUNK_MS;
    if (!left) break;
    const write = release(element);
    if (element.isConnected) write();
  }
  if (pending.size) askIdle();
}

function askIdle() {
  if (asked) return;
  asked = true;
  whenIdle(runIdle);
}

// element → whether it is near the screen (true until the observer's first report says)
const near = new Map();
const placed = (entries) => {
  for (const { target, isIntersecting } of entries) {
    if (!near.has(target)) continue; // let go of meanwhile
    near.set(target, isIntersecting);
    if (isIntersecting && pending.has(target)) release(target)();
  }
};
const observer = new IntersectionObserver(placed, { rootMargin: NEAR });

function isNear(element) {
  if (!near.has(element)) {
    observer.observe(element);
    near.set(element, true); // new on the page: written now, placed by the observer's report
  }
  return near.get(element);
}

// The observer's reports are made as a frame is drawn and delivered in a task of their own,
// which a click right after that frame (a visit's first, say) can run before: take them now.
const placeNow = () => placed(observer.takeRecords());

/** Start watching where elements are, before anything is written into them: the first
 * answer (a visit's first click) then finds out which of them are far from the screen. */
export function watchNear(elements) {
  for (const element of elements) if (element) isNear(element);
}

/** Let go of elements no longer on the page (rows a shorter sentence dropped, a page left). */
function forget() {
  for (const element of near.keys()) {
    if (element.isConnected) continue;
    observer.unobserve(element);
    near.delete(element);
    if (pending.has(element)) release(element);
  }
}

/** Write `write()` into `element` now if it is near the screen, else once the page is idle or
 * it comes near; a newer write for the same element replaces one still waiting. `region` (the
 * element, or a table holding it) says aria-busy while any of its writes waits. */
export function writeNear(element, write, region = element) {
  placeNow();
  if (isNear(element)) {
    if (pending.has(element)) release(element);
    write();
  } else {
    hold(element, write, region);
    askIdle();
  }
}

/** Write now whatever waits inside `root` or around it: what is read off the page (a drawing
 * saved as a file) must be the state on screen, not the one before the last click. */
export function writeNow(root) {
  for (const element of [...pending.keys()]) {
    if (!root.contains(element) && !element.contains(root)) continue;
    const write = release(element);
    if (element.isConnected) write();
  }
}

/**
 * Fill tbody's rows (already in step with `items`): `now(tr, item)` at once for every row, for
 * what must never lag (the query's mark, a button's pressed state: the row a reader just chose,
 * and the one it left); `fill(tr, item)` near the screen now, far from it later (writeNear).
 */
export function fillNear(tbody, items, fill, now) {
  placeNow();
  const rows = tbody.rows;
  for (let k = 0; k < items.length; k++) {
    const tr = rows[k];
    const item = items[k];
    now(tr, item);
    writeNear(tr, () => fill(tr, item), tbody);
  }
  forget();
}
