// Two tiny element builders, so render functions can create markup without innerHTML.

const SVG = "http://www.w3.org/2000/svg";

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

/** Set an element's text only when it changes, so an unchanged cell costs no layout. */
export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/** Set an attribute only when it changes. */
export function setAttr(element, name, value) {
  const text = String(value);
  if (element.getAttribute(name) !== text) element.setAttribute(name, text);
}
