// Keep the reader's place where the engine does not. Chromium and Firefox anchor scrolling:
// when a block above the screen changes height, they scroll by as much, so what the reader
// looks at stays put. WebKit (Safari) does not: a click in the working table that redrew the drawing
// above it 21 px shorter moved the table, and the row under the pointer, by 21 px. Loaded by
// page.js only where CSS.supports("overflow-anchor", "auto") is false.
//
// The same, for the page's blocks (its article's children): one that changes height while
// wholly above the screen scrolls the page by its change, before the frame is painted (a
// ResizeObserver runs after layout, before paint). Nothing is read as the page scrolls.
//
// Not while the page is moving: a scroll of ours would stop a smooth scroll under way ("Show on
// the bench" gliding up to the drawing, which changes height as it comes; it says when it begins,
// by dom.js's glide) and a reader's fling.
//
// A link to a place in the page (/bench/#bench-lexicon) lands there before the page is drawn: the
// figures above it grow as they are drawn (some before this module has seen their heights),
// and in WebKit the figure dropped from 59 to 139 px and stayed. Until the reader moves, the
// place a link landed on is held where the link puts it (below the header), as Chromium and
// Firefox keep it by their scroll anchoring.

import { headerRoom, pageBlocks } from "./dom.js";

const heights = new Map(); // block -> its height when last seen (px)
let blocks = [];
const MOVING_MS = 150; // a scroll event this recent, not ours, means the page is moving
let moved = -Infinity; // when the page last moved by a scroll not ours (performance.now())
let ours = null; // the scrollY our last scroll gave, until its scroll event comes
let seenNow = false; // whether this frame delivered the blocks' sizes to us

let held = null; // the element a link landed on, held where it landed until the reader moves
let heldY = 0; // scrollY as the page last held it
const SETTLING_MS = 1000; // after the load event, the time WebKit's own scrolls may still come
let loaded = Infinity; // when the page's load event came (performance.now())
if (document.readyState === "complete") loaded = performance.now();
else addEventListener("load", () => { loaded = performance.now(); }, { once: true });

addEventListener("scroll", () => {
  if (ours !== null && Math.abs(scrollY - ours) < 1) ours = null; // our own scroll's event
  else {
    moved = performance.now();
    // A scroll that moves the page from where it was held is the reader's (a scrollbar
    // dragged: no input event says so), once the page has been loaded a while. Until then
    // WebKit scrolls by itself: it lands on the place again, keeps the page in its length as
    // that changes (7,489 to 7,373 px, the place 295 px below its landing), and a scroll
    // event can come long after its scroll.
    if (held && Math.abs(scrollY - heldY) >= 2 && performance.now() - loaded > SETTLING_MS) held = null;
  }
}, { passive: true });
addEventListener("glide", () => { moved = performance.now(); held = null; }); // a smooth scroll begins (dom.js)
for (const type of ["wheel", "touchstart", "pointerdown", "keydown"]) { // the reader moves
  addEventListener(type, () => { held = null; }, { capture: true, passive: true });
}

/** How far (px) the held place is below where its link lands it. */
function heldOff() {
  const margin = parseFloat(getComputedStyle(held).scrollMarginTop) || 0;
  return held.getBoundingClientRect().top - headerRoom() - margin;
}

/** What a link landed on: the #fragment's element in this content, on a page opened at its
 * link. Not on a page come back to (Back, Forward, a reload): the browser puts the reader back
 * where they were, not at the link's place. */
function landedOn(main) {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (!target || !main.contains(target)) return null;
  const swap = window.navigation?.transition; // a page swapped in (nav.js)
  const type = swap ? swap.navigationType : performance.getEntriesByType("navigation")[0]?.type;
  return ["navigate", "push", "replace"].includes(type) ? target : null;
}

const observer = new ResizeObserver((entries) => {
  if (!seenNow) requestAnimationFrame(() => { seenNow = false; });
  seenNow = true;
  let shift = held ? heldOff() : 0; // the held place says it all, blocks wholly above or not
  if (Math.abs(shift) < 1) shift = 0;
  for (const entry of entries) {
    const height = entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height;
    const before = heights.get(entry.target);
    heights.set(entry.target, height);
    if (before === undefined || height === before) continue; // first seen, or unchanged
    const change = height - before;
    // its bottom before the change (its top has not moved: nothing above it changed with it)
    if (!held && entry.target.getBoundingClientRect().bottom - change <= 0) shift += change;
  }
  if (!shift) return;
  // (the held place is held while the page moves too: the landing's own scroll is a move)
  if (!held && (scrollY <= 0 || performance.now() - moved < MOVING_MS)) return;
  const from = scrollY;
  scrollBy(0, shift);
  if (scrollY === from) { // at the page's end (or top): no place to hold it at, nothing to wait for
    held = null;
    return;
  }
  ours = heldY = scrollY; // its scroll event is not the page moving (above)
  // The scroll can bring a skipped figure (content-visibility) near the screen, laid out, and
  // so resized, in this same frame: observed, that change would go undelivered (a "ResizeObserver
  // loop" error). The blocks are observed again from the next frame, and a change meanwhile is
  // measured then against the heights kept.
  observer.disconnect();
  requestAnimationFrame(() => observe(blocks));
});

// The blocks are shallow in the page: a change that another observer's writes make to one after
// its sizes were delivered here (a wrapper's scroll cue shown, by scrolling.js), or that our
// scroll makes (a skipped figure laid out), can only be delivered in the next frame. The
// standard has it so, and says it with an error event, which is expected in a frame that
// delivered to us, and handled: it shows on no reader's console. Any other is left to show,
// as a fault. (The engines' tests count every such notice, handled or not, on a page at rest.)
addEventListener("error", (event) => {
  if (seenNow && /^ResizeObserver loop/.test(event.message)) event.preventDefault();
});

function observe(list) {
  for (const block of list) if (block.isConnected) observer.observe(block);
}

/** Keep the place of a reader of this content (the <main> now in the document). */
export function keepPlace(main) {
  observer.disconnect();
  heights.clear();
  held = landedOn(main); // (set at the first sizes delivered, as any change after them)
  heldY = scrollY;
  blocks = pageBlocks(main);
  observe(blocks);
}
