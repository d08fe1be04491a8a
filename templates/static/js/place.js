// The reader's place on a page, and what had focus there: kept by nav.js as the reader leaves
// the page by one of the site's links, and given back when Back or Forward returns to it. (The
// page comes back swapped in, as new elements: the browser restores neither.)
//
// A place is what was at the top of the screen, not a scroll position: what lies above the
// screen may come back laid out otherwise than the reader left it. The bench's drawing, off
// screen and skipped (content-visibility), comes back at its placeholder's 800 px, not the
// 1,598 px it had, and scrollY alone brought the reader back 800 px below their place.
//
// Focus comes back to what had it (the header's link the reader followed), as a page the
// browser keeps whole does; the page's title, which a new page focuses, sat 2,000 px above the
// screen, and the first Tab went back to the top of the page.

import { dropAttrs, headerRoom } from "./dom.js";

const REGIONS = [".site-header", "main", ".site-footer"]; // what swap.js swaps
// the reader moves the page (a glide: the page brings what they asked for into view, dom.js)
const READER = ["wheel", "touchstart", "pointerdown", "keydown", "glide"];
const DEPTH = 12; // how deep a place is looked for: a paragraph, a row, a part of a drawing

// An element that sticks (the bench's drawing beside its walk) stays on screen as the page
// scrolls under it: it says nothing of the place, and as one, each scroll to set it left it
// where it was (the page crept 11 px a frame).
const moves = (e) => !["sticky", "fixed"].includes(getComputedStyle(e).position);

/** The path to the element at the top of the screen: from <main>, the first child whose foot
 * is on screen, and into it while its top is above the screen. Each step: [index, top]. */
function mark(main) {
  const path = [];
  let element = main;
  while (element && path.length < DEPTH) {
    const children = [...element.children];
    const k = children.findIndex((child) => child.getBoundingClientRect().bottom > 0 && moves(child));
    if (k < 0) break;
    const top = children[k].getBoundingClientRect().top;
    path.push([k, top]);
    element = top < 0 ? children[k] : null;
  }
  return path;
}

/** The element of a path in the page now, as deep as it still leads, with its top then. */
function find(path) {
  let element = document.querySelector("main");
  let then = null;
  for (const [k, top] of path) {
    const child = element?.children[k];
    if (!child) break;
    [element, then] = [child, top];
  }
  return then === null ? null : { element, then };
}

// An element that can have focus is named by its region, what it is and says, and which of
// the region's elements that are the same it is (nav.js writes a leaving page's links out in
// full only after this is read: the page comes back with its links as written).
const what = (e) => [e.tagName, e.id, e.getAttribute("href"), e.getAttribute("name"), e.getAttribute("value"),
  e.textContent.trim().slice(0, 60)].join("|");

function focusKey(element) {
  const region = element && element !== document.body && REGIONS.find((s) => element.closest(s));
  if (!region) return null;
  const same = [...element.closest(region).querySelectorAll(element.tagName)].filter((e) => what(e) === what(element));
  return { region, what: what(element), tag: element.tagName, nth: same.indexOf(element) };
}

function focused(key) {
  const region = key && document.querySelector(key.region);
  if (!region) return null;
  return [...region.querySelectorAll(key.tag)].filter((e) => what(e) === key.what)[key.nth] || null;
}

/** The reader's place on the page shown, and what has focus. */
export function keep() {
  const main = document.querySelector("main");
  return { y: scrollY, path: main ? mark(main) : [], focus: focusKey(document.activeElement) };
}

const onScreen = (e) => { const r = e.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; };

/** The first element from this one on, in the page's order, whose top is on screen below the
 * header: the place is what the screen's top cuts, and the next Tab from there went to what
 * sat beside it under the header (the bench's T box, 11 px above the screen), and the browser
 * scrolled 482 px back to show it. */
function below(element) {
  if (!element) return null;
  const room = headerRoom();
  const walk = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_ELEMENT);
  walk.currentNode = element;
  for (let e = element, n = 0; e && n < 400; e = walk.nextNode(), n++) {
    const r = e.getBoundingClientRect();
    if (r.height > 0 && r.top >= room) return r.top < innerHeight ? e : element;
  }
  return element;
}

/** Focus what had it, without a scroll, if it is on screen at the place. When nothing had it,
 * it is gone, or it is far from the place (the title a page's arrival focused, the reader
 * having read on), the place itself takes focus for the moment, so that the first Tab goes on
 * from there, not from the page's top. */
function refocus(kept) {
  const element = focused(kept.focus);
  if (element && onScreen(element)) {
    element.focus({ preventScroll: true });
    if (document.activeElement === element) return;
  }
  const at = below(find(kept.path)?.element);
  if (!at) return;
  if (!at.hasAttribute("tabindex")) {
    at.tabIndex = -1;
    at.addEventListener("blur", () => dropAttrs(at, "tabindex"), { once: true });
  }
  at.focus({ preventScroll: true });
}

/** Bring the reader back to a kept place. The page just swapped in may still be changing (its
 * figures drawn, its fonts) or too short to scroll there: the place is set again each frame
 * until it has held for STILL frames, for up to a second, unless the reader moves first. (The
 * browser's scroll anchoring keeps it after that; anchor.js where there is none.) Returns a
 * function that stops it: nav.js calls it when another page comes (within the second, a
 * place kept on this page, found again on the next by its path, scrolled that page about). */
const STILL = 10;
export function restore(kept) {
  const reader = new AbortController();
  for (const type of READER) {
    addEventListener(type, () => reader.abort(), { once: true, passive: true, signal: reader.signal });
  }
  let frames = 60;
  let still = 0;
  (function step() {
    if (reader.signal.aborted) return;
    const found = find(kept.path);
    const off = found ? found.element.getBoundingClientRect().top - found.then : scrollY - kept.y;
    still = Math.abs(off) < 1 ? still + 1 : 0;
    if (found && Math.abs(off) >= 1) scrollBy(0, off);
    else if (!found && Math.abs(off) >= 1) scrollTo(0, kept.y);
    if (frames === 60) refocus(kept); // once, at the place
    if (still >= STILL || --frames === 0) reader.abort();
    else requestAnimationFrame(step);
  })();
  return () => reader.abort();
}
