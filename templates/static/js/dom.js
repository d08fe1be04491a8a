//# allFunctionsCalledOnLoad
// Small DOM helpers for render functions: clone a part the build wrote once in a <template>,
// and write attributes and texts only when they change (no innerHTML, no layout reads but
// glide's, at a reader's click).

const SVG = "http://www.w3.org/2000/svg";

/** The first element under root that matches the selector (or null). */
export const $ = (root, selector) => root.querySelector(selector);
/** The element inside root that shows one field of an answer: data-bind="<name>". */
export const bound = (root, name) => root.querySelector(`[data-bind="${name}"]`);

function build(element, attributes, children) {
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (typeof children === "string") element.textContent = children;
  else for (const child of children) element.append(child);
  return element;
}

/** Create an SVG element with attributes and children (nodes, or one string of text). */
export function svg(tag, attributes = {}, children = []) {
  return build(document.createElementNS(SVG, tag), attributes, children);
}

/** Create an HTML element with attributes and children (nodes, or one string of text). */
export function html(tag, attributes = {}, children = []) {
  return build(document.createElement(tag), attributes, children);
}

/**
 * Clone the part named `name` from a <template data-part> inside root. A template holds its
 * part inside the wrappers the HTML parser needs (<svg>, <table><tbody>, ...); its
 * data-depth says how many to step through.
 */
export function part(root, name) {
  const template = root.querySelector(`template[data-part="${name}"]`);
  let node = template.content.firstElementChild;
  for (let k = Number(template.dataset.depth || 0); k > 0; k--) node = node.firstElementChild;
  return node.cloneNode(true);
}

/** Set an element's text only when it changes, writing its one Text node's data. */
export function setText(element, text) {
  const node = element.firstChild;
  if (node && node.nodeType === 3 && node === element.lastChild) {
    if (node.data !== text) node.data = text;
  } else if (element.textContent !== text) {
    element.textContent = text;
  }
}

/** Set an attribute only when it changes. */
export function setAttr(element, name, value) {
  const text = String(value);
  if (element.getAttribute(name) !== text) element.setAttribute(name, text);
}

/** Turn a class on or off only when that changes (a class change can restyle a whole figure). */
export function setClass(element, name, on) {
  on = Boolean(on); // toggle(name, undefined) would flip the class instead of taking it off
  if (element.classList.contains(name) !== on) element.classList.toggle(name, on);
}

/** Show or hide an element only when that changes. */
export function setHidden(element, hidden) {
  if (element.hidden !== hidden) element.hidden = hidden;
}

/** Remove attributes an element may carry. */
export function dropAttrs(element, ...names) {
  for (const name of names) if (element.hasAttribute(name)) element.removeAttribute(name);
}

/**
 * Keep a container's children in step with a list: clone the part for new items, drop
 * surplus ones, then fill each child with its item (keyed by position), if given a fill
 * (without one, the caller fills them itself: near.js fills rows on screen first).
 */
export function syncList(container, items, make, fill) {
  const children = container.children;
  while (children.length > items.length) children[children.length - 1].remove();
  while (children.length < items.length) container.append(make(children.length));
  if (fill) items.forEach((item, k) => fill(children[k], item, k));
}

/**
 * Mark a figure's numbers as out of date (or current again): they belong to the last input
 * that could be computed, and its notice says so. Never dimmed: the styles set them in grey
 * italics, which keep their contrast and their minus signs.
 */
export function markStale(root, stale, why = "input") {
  setClass(root, "is-stale", stale);
  const notice = root.querySelector(':scope > [data-bind="stale"]');
  if (notice) setHidden(notice, !stale);
  if (notice) staleWhy(notice, why);
}

/** Show the reason a stale notice gives: "input" (invalid) or "runtime" (Python unavailable). */
export function staleWhy(notice, why) {
  for (const span of notice.querySelectorAll("[data-stale-why]")) setHidden(span, span.dataset.staleWhy !== why);
}

/** The page's blocks: the children of its article (or of its <main>), in the page's order. */
export function pageBlocks(main = document.querySelector("main")) {
  return [...(main?.querySelector(":scope > article") || main || document.body).children];
}

/** Bring an element into view as scrollIntoView's options say, and tell the page first (a
 * "glide" event): anchor.js, which keeps the reader's place by scrolls of its own, leaves one
 * under way to end (a scroll of its own stopped a smooth one where it began, in WebKit).
 * A part of a drawing is brought "nearest" by its own box, read here once, at the reader's
 * click: Firefox scrolled such a part (an SVG <g>) 89 px and left it below the screen. */
export function glide(element, options) {
  if (element.ownerSVGElement && options.block === "nearest") {
    const box = element.getBoundingClientRect();
    glideSpan(box.top, box.bottom, options.behavior);
    return;
  }
  dispatchEvent(new Event("glide"));
  element.scrollIntoView(options);
}

/** The room the site's header takes at the top of the screen, in px (scroll-padding-top). */
export const headerRoom = () => parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;

/** The room the header takes on the screen now: none while it is tucked away (header.js). */
export const headerShown = () => (document.querySelector(".site-header:not(.is-tucked)") ? headerRoom() : 0);

/** Bring the stretch of the page from top to bottom (px from the screen's top) into view below
 * the header by the least scroll, as glide() does (the "glide" event first); a stretch taller
 * than the room shows from its top. `room` is the header's (0: the header hides, as it does
 * while the page moves down). */
export function glideSpan(top, bottom, behavior, room = headerRoom()) {
  dispatchEvent(new Event("glide"));
  const by = top < room ? top - room : Math.max(0, Math.min(bottom - innerHeight, top - room));
  if (by) scrollBy({ top: by, behavior });
}
