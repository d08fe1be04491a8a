// The site's header stays within reach: scrolled down it tucks away above the page, and the
// moment the reader scrolls back up (or tabs into it) it comes down over the page. A reader deep
// in a chapter reaches another one from where they are, so Back brings them back there, as it
// does after a link in the text (nav.js keeps each page's position). Nothing here reads layout
// as the page scrolls: the header's height comes from a ResizeObserver.

import { setClass } from "./dom.js";

const header = () => document.querySelector(".site-header"); // nav.js swaps it with each page
const STEP = 6; // px of scrolling in one direction that counts as the reader's intent
let last = scrollY;
let height = 0; // the header's, in px
let frame = 0;

function tuck(tucked) {
  const element = header();
  if (element) setClass(element, "is-tucked", tucked);
}

function update() {
  frame = 0;
  const y = scrollY;
  const element = header();
  if (!element) return;
  if (y <= height) tuck(false); // at the top it is simply there
  else if (y > last + STEP && !element.contains(document.activeElement)) tuck(true);
  else if (y < last - STEP) tuck(false);
  else return; // too small a move to say which way the reader goes: keep the last one
  last = y;
}

addEventListener("scroll", () => { frame ||= requestAnimationFrame(update); }, { passive: true });
// a keyboard reader who tabs back to the header finds it in view
document.addEventListener("focusin", (event) => {
  if (event.target.closest && event.target.closest(".site-header")) tuck(false);
});

// Its height, for the above and for the page, which keeps clear of it where focus or an
// #anchor lands (html's scroll-padding).
const sized = new ResizeObserver(([entry]) => {
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
window.navigation?.addEventListener("navigatesuccess", () => { // nav.js swapped in a new header
  last = scrollY;
  measure();
});
