// Keep the reader's place where the engine does not. Chromium and Firefox anchor scrolling:
// when a block above the screen changes height, they scroll by as much, so what the reader
// looks at stays put. WebKit (Safari) does not: a click in FIG-005's table that redrew FIG-004
// above it 21 px shorter moved the table, and the row under the pointer, by 21 px. Loaded by
// page.js only where CSS.supports("overflow-anchor", "auto") is false.
//
// The same, for the page's blocks (its article's children): one that changes height while
// wholly above the screen scrolls the page by its change, before the frame is painted (a
// ResizeObserver runs after layout, before paint). Nothing is read as the page scrolls.

const heights = new Map(); // block -> its height when last seen (px)
let blocks = [];

const observer = new ResizeObserver((entries) => {
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
  if (!shift || scrollY <= 0) return;
  scrollBy(0, shift);
  // The scroll can bring a skipped figure (content-visibility) near the screen, laid out, and
  // so resized, in this same frame: observed, that change would go undelivered (a "ResizeObserver
  // loop" error). The blocks are observed again from the next frame, and a change meanwhile is
  // measured then against the heights kept.
  observer.disconnect();
  requestAnimationFrame(() => observe(blocks));
});

// A block watched here can change size again in the frame it is scrolled in (another
// observer's writes, a skipped figure laid out). The browser then delivers that change in the
// next frame, as the standard has it, and says so with an error event: that event is expected
// here, and handled, so that it shows on no reader's console as an error.
addEventListener("error", (event) => {
  if (/^ResizeObserver loop/.test(event.message)) event.preventDefault();
});

function observe(list) {
  for (const block of list) if (block.isConnected) observer.observe(block);
}

/** Keep the place of a reader of this content (the <main> now in the document). */
export function keepPlace(main) {
  observer.disconnect();
  heights.clear();
  blocks = [...(main.querySelector(":scope > article") || main).children];
  observe(blocks);
}
