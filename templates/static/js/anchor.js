// Keep the reader's place where the engine does not. Chromium and Firefox anchor scrolling:
// when a block above the screen changes height, they scroll by as much, so what the reader
// looks at stays put. WebKit (Safari) does not: a click in FIG-005's table that redrew FIG-004
// above it 21 px shorter moved the table, and the row under the pointer, by 21 px. Loaded by
// page.js only where CSS.supports("overflow-anchor", "auto") is false.
//
// The same, for the page's blocks (its article's children): one that changes height while
// wholly above the screen scrolls the page by its change, before the frame is painted (a
// ResizeObserver runs after layout, before paint). Nothing is read as the page scrolls.
//
// Not while the page is moving: a scroll of ours would stop a smooth scroll under way ("Show on
// the bench" gliding up to FIG-004, which changes height as it comes; it says when it begins,
// by dom.js's glide) and a reader's fling.

import { pageBlocks } from "./dom.js";

const heights = new Map(); // block -> its height when last seen (px)
let blocks = [];
const MOVING_MS = 150; // a scroll event this recent, not ours, means the page is moving
let moved = -Infinity; // when the page last moved by a scroll not ours (performance.now())
let ours = null; // the scrollY our last scroll gave, until its scroll event comes
let seenNow = false; // whether this frame delivered the blocks' sizes to us

addEventListener("scroll", () => {
  if (ours !== null && Math.abs(scrollY - ours) < 1) ours = null; // our own scroll's event
  else moved = performance.now();
}, { passive: true });
addEventListener("glide", () => { moved = performance.now(); }); // a smooth scroll begins (dom.js)

const observer = new ResizeObserver((entries) => {
  if (!seenNow) requestAnimationFrame(() => { seenNow = false; });
  seenNow = true;
  let shift = 0;
  for (const entry of entries) {
    const height = entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height;
    const before = heights.get(entry.target);
    heights.set(entry.target, height);
    if (before === undefined || height === before) continue; // first seen, or unchanged
    const change = height - before;
    // its bottom before the change (its top has not moved: nothing above it changed with it)
    if (entry.target.getBoundingClientRect().bottom - change <= 0) shift += change;
  }
  if (!shift || scrollY <= 0 || performance.now() - moved < MOVING_MS) return;
  scrollBy(0, shift);
  ours = scrollY; // its scroll event is not the page moving (above)
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
  blocks = pageBlocks(main);
  observe(blocks);
}
