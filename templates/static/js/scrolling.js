// A table too wide for its figure scrolls sideways inside its wrapper (.table-wrap). While it
// does, the wrapper takes focus, so that it scrolls by keyboard too, and says so
// (data-scrolls, which the styles and the scroll cue read).
//
// A table whose first column sticks (.sticky-start: the bench's words) comes to rest with a
// column's start just past that column (the styles snap to it, with --sticky-start its width):
// a column cut under it would show the end of its numbers without their start, "−75.000" as
// "00". Its furthest rest must be a column's start too, so its last scrolling column gets the
// room that makes it one (--end-room). At its other end, the column its sticky last column
// cuts at rest is marked (data-cut), and the styles hide that column's numbers.

import { dropAttrs, setAttr } from "./dom.js";

/** The room to add at the table's end so that its furthest scroll is a column's start (width:
 * the sticky column's, as the observer gave it; added: the room given now). */
function endRoom(wrap, table, start, width, added) {
  const origin = wrap.getBoundingClientRect().left + wrap.clientLeft - wrap.scrollLeft;
  const furthest = table.getBoundingClientRect().width - wrap.clientWidth - added; // without room
  if (furthest <= 0) return 0;
  const rests = [...start.parentElement.cells] // each scrolling column's start, as a scroll offset
    .filter((th) => th !== start && th.nextElementSibling)
    .map((th) => th.getBoundingClientRect().left - origin - width)
    .filter((x) => x >= furthest - 0.5);
  return rests.length ? Math.max(0, Math.min(...rests) - furthest) : 0;
}

/** The box of what a cell draws (its text), not of the cell. */
function inked(cell) {
  const range = document.createRange();
  range.selectNodeContents(cell);
  return range.getBoundingClientRect();
}

const SCROLL_QUIET_MS = 150; // no scroll this long: at rest, where no scrollend event says so
const SAYS_SCROLLEND = "onscrollend" in window; // not WebKit
const JITTER = 0.25; // px: a change of room smaller than this is layout's rounding, not a change
const FADE_REM = 0.5; // the width of the sticky result column's fade (style.css, its ::before)

/** At rest, the place (counted from 1) of the column whose numbers the sticky last column
 * (the weights) cuts, or 0: the styles hide them (data-cut), as "38.0" of 38.084 would read as
 * another number. While the table moves they show, as they pass. The column's edge is where
 * its fade begins (its ::before, FADE_REM to its left, drawn once the table scrolls): a last
 * digit faded out there read as "6963.36" of 6963.364, with the table as first drawn on a phone. */
function cutColumn(table) {
  const heads = [...(table.tHead?.rows[0]?.cells || [])];
  const last = heads.at(-1);
  if (!last) return 0;
  const edge = last.getBoundingClientRect().left - FADE_REM * parseFloat(getComputedStyle(document.documentElement).fontSize);
  const rows = [table.tHead.rows[0], ...(table.tBodies[0]?.rows || [])];
  return 1 + heads.findIndex((th, k) => th !== last && rows.some((row) => {
    const box = row.cells[k] && inked(row.cells[k]);
    return box && box.width > 0 && box.left < edge - 0.5 && box.right > edge + 0.5;
  }));
}

function markCut(wrap, cut) {
  if (cut) setAttr(wrap, "data-cut", cut);
  else dropAttrs(wrap, "data-cut");
}

/** Watch a wrapper's size and its table's. The sizes come from the observer, after layout, and
 * every reading is made before anything is written: nothing here makes the page lay itself out
 * again before a frame, and a table that does not scroll reads nothing. */
export function watchScrolling(wrap) {
  const table = wrap.firstElementChild;
  const start = wrap.querySelector("thead .sticky-start");
  const first = start?.parentElement.cells[0];
  let room = 0;
  let needed = 0;
  let stuck = 0; // the sticky column's width, in px
  let stuckGiven = null; // the width the styles were last given
  let added = 0; // the room given at the end, in px
  // Every write is made in the next frame, before its layout, not in the observer's callback:
  // each can change the size of what this observer watches (data-scrolls pads the table's
  // last scrolling column; the room widens it), and a change made there, after the table's
  // last delivery of the frame, goes undelivered (a "ResizeObserver loop" error: Firefox at
  // 500 px as the bench first drew, and on the lab at 1280 px as T = 0.01 made its table
  // scroll). In the next frame the new size is observed, and measured again against.
  let writing = 0;
  const write = (scrolls, next, cut) => {
    // a custom property restyles the whole table when it is set, even to its own value
    if (start && stuck !== stuckGiven) {
      wrap.style.setProperty("--sticky-start", `${(stuckGiven = stuck)}px`);
      // The table's own start is a rest too (its first column, j, in view). Its snap position
      // is before the scroll's start, which Chromium and WebKit take as 0 and Firefox drops,
      // so that the table came to rest 15 px in with j hidden: its cell's margin puts it at 0.
      if (first !== start) first.style.scrollMarginLeft = `${-stuck}px`;
    }
    setAttr(wrap, "data-scrolls", scrolls);
    if (scrolls) setAttr(wrap, "tabindex", 0);
    else dropAttrs(wrap, "tabindex");
    // Layout rounds widths (WebKit to 1/64 px): the room, once given, can measure a hundredth
    // of a pixel off what it asks for, and asking again flipped it every frame (47.57 and 47.59
    // px at 500 px): a rest that is off by less than JITTER is a rest
    if (Math.abs(next - added) > JITTER) {
      added = next;
      wrap.style.setProperty("--end-room", `${next}px`);
    }
    markCut(wrap, cut);
  };
  const observer = new ResizeObserver((entries) => {
    for (const entry of entries) {
      const width = entry.borderBoxSize?.[0]?.inlineSize ?? entry.contentRect.width;
      if (entry.target === wrap) room = entry.contentRect.width;
      else if (entry.target === table) needed = width - added;
      else if (entry.target === start) stuck = width;
    }
    const scrolls = needed > room + 1;
    const snaps = Boolean(start) && scrolls;
    const next = snaps ? Math.round(endRoom(wrap, table, start, stuck, added) * 100) / 100 : 0;
    const cut = snaps ? cutColumn(table) : 0;
    cancelAnimationFrame(writing);
    writing = requestAnimationFrame(() => write(scrolls, next, cut));
  });
  if (start) {
    // At rest again, the cut column is found anew: when the scroll ends, or, where no
    // "scrollend" comes (WebKit), once no scroll has come for a while (a cut column's digits
    // showed there after every sideways scroll: "−2" of −2.449 at the weights' edge)
    const ended = () => markCut(wrap, cutColumn(table));
    let quiet = 0;
    wrap.addEventListener("scroll", () => {
      markCut(wrap, 0);
      if (!SAYS_SCROLLEND) {
        clearTimeout(quiet);
        quiet = setTimeout(ended, SCROLL_QUIET_MS);
      }
    }, { passive: true });
    wrap.addEventListener("scrollend", ended, { passive: true });
  }
  observer.observe(wrap);
  if (table) observer.observe(table);
  if (start) observer.observe(start);
}
