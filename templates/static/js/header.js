// The site's header stays within reach: scrolled down it tucks away above the page, and the
// moment the reader scrolls back up (or tabs into it) it comes down over the page. A reader deep
// in a chapter reaches another one from where they are, so Back brings them back there, as it
// does after a link in the text (nav.js keeps each page's position). Nothing here reads layout:
// the header's height comes from a ResizeObserver, where the page's blocks are from an
// IntersectionObserver. (One read: the phone's row of links is scrolled to the page's own, below.)

import { pageBlocks, setClass } from "./dom.js";

const header = () => document.querySelector(".site-header"); // nav.js swaps it with each page
const STEP = 6; // px of scrolling in one direction that counts as the reader's intent
let last = scrollY;
let height = 0; // the header's, in px

function tuck(tucked) {
  const element = header();
  if (element) setClass(element, "is-tucked", tucked);
}

/** Tuck or bring down the header for the page scrolled to y; kept: scrolled there by the page
 * itself, to keep the reader's place (below). */
function update(y, kept) {
  const element = header();
  if (!element) return;
  if (y <= height) tuck(false); // at the top it is simply there
  else if (kept) { /* not the reader's move: their next one counts from here */ }
  else if (y > last + STEP && !element.contains(document.activeElement)) tuck(true);
  else if (y < last - STEP) tuck(false);
  else return; // too small a move to say which way the reader goes: keep the last one
  last = y;
}

// A scroll the page makes to keep the reader's place is no move of theirs: a figure above the
// screen changed height and the engine (scroll anchoring; anchor.js in WebKit) scrolled by as
// much, so that nothing on screen moved (a row clicked in the working table redraws the drawing above it
// 22 px shorter or taller). So a scroll is judged by the page's blocks on screen: the reader's
// scroll moves every one of them by as much; a kept place leaves one where it was, the one the
// engine held, while a block that grew above it moves (so not only the first block on screen
// is asked: that may be the figure that changed). Observed anew, each block is reported once,
// where the frame's own layout put it.
let blocks = [];
let tops = new Map(); // each block -> its top on screen (px) at the last judgement
let seenY = scrollY; // and scrollY then
let judging = false;
const where = new IntersectionObserver((entries) => {
  where.disconnect();
  judging = false;
  const y = scrollY;
  const now = new Map(entries.map((entry) => [entry.target, entry.boundingClientRect]));
  const shown = entries.filter((entry) => entry.isIntersecting).map((entry) => entry.target);
  // held: moved by less than half the scroll (the engine keeps a place to the whole pixel, so
  // the held block may drift by a fraction; the reader's scroll moves every block by all of it)
  const held = (block) => tops.has(block) && Math.abs(now.get(block).top - tops.get(block)) < Math.abs(y - seenY) / 2;
  const kept = y !== seenY && shown.some(held);
  tops = new Map([...now].map(([block, box]) => [block, box.top]));
  seenY = y;
  update(y, kept);
});
addEventListener("scroll", () => {
  if (judging) return;
  judging = true;
  for (const block of blocks) where.observe(block);
}, { passive: true });
let page = null; // the <main> whose blocks are watched
function watchBlocks() {
  page = document.querySelector("main");
  blocks = pageBlocks(page);
  tops = new Map();
}
watchBlocks();

// a keyboard reader who tabs back to the header finds it in view
document.addEventListener("focusin", (event) => {
  if (event.target.closest && event.target.closest(".site-header")) tuck(false);
});

// Its height, for the above and for the page, which keeps clear of it where focus or an
// #anchor lands (html's scroll-padding).
const sized = new ResizeObserver(([entry]) => {
  // The header a swap took out (nav.js) is still observed until the swap has ended, and is
  // told 0 px: its room, set to 0 while the new page's #anchor was being landed below it, put
  // the figure under the header, or not, as frames fell (the new header is as tall)
  if (!entry.target.isConnected) return;
  height = Math.ceil(entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height);
  if (document.documentElement.style.getPropertyValue("--header-height") !== `${height}px`) {
    document.documentElement.style.setProperty("--header-height", `${height}px`);
  }
});
const measure = () => {
  sized.disconnect();
  if (header()) sized.observe(header());
};
measure();

// On a phone the links are one row that scrolls sideways (style.css): the page's own link is
// brought into it, centred where it can be. (Its one read of layout, once per page.)
function showCurrent() {
  const nav = header()?.querySelector("nav");
  const link = nav?.querySelector('[aria-current="page"]');
  if (!link || nav.scrollWidth <= nav.clientWidth) return;
  const [box, own] = [nav.getBoundingClientRect(), link.getBoundingClientRect()];
  nav.scrollLeft += own.left - box.left - (box.width - own.width) / 2;
}
showCurrent();
window.navigation?.addEventListener("navigatesuccess", () => {
  // Only a page nav.js swapped in is watched anew: the address a click writes for its state
  // (a row of the working table: ?query=3) is no new page, and the blocks' tops, forgotten there, made the
  // engine's next kept place read as the reader's scroll
  if (document.querySelector("main") === page) return;
  last = scrollY;
  measure();
  watchBlocks();
  showCurrent();
});
