// "Share and download" on every figure: the link and embed code for the state on screen,
// and the figure's numbers (computed by Python) as CSV or JSON, its drawing as SVG, or as a
// PNG twice its size for a slide (png.js).

import { flush as addressNow } from "./address.js";
import { html, setAttr, setText, svg as svgElement } from "./dom.js";
import { writeNow } from "./near.js";
import { watchScrolling } from "./scrolling.js";
import * as runtime from "./runtime.js";
import { inLightPalette } from "./theme.js";
import { t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
// the elements that draw something (not title, desc, defs or patterns, which never display)
const DRAWN = new Set(["g", "text", "tspan", "line", "rect", "circle", "path", "polyline", "polygon"]);
const STYLE = ["fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-linecap",
  "stroke-linejoin", "opacity", "font-family", "font-size", "font-weight", "text-anchor", "visibility"];

/** The home of the page's edition (the site's root, or its language's folder), wherever it is hosted. */
function editionHome() {
  return new URL(document.body.dataset.home || document.body.dataset.root || "./", location.href).href;
}

/** A link that reopens this figure in its chapter, in the state on screen. */
export function deepLink(root) {
  const chapter = document.querySelector(".embed-source a");
  const base = chapter ? new URL(chapter.getAttribute("href"), location.href) : new URL(location.href);
  addressNow(); // the state just drawn may not be in the address yet
  base.search = location.search;
  base.hash = root.id;
  return base.href;
}

const escapeAttribute = (text) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;")
  .replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The iframe snippet for this figure in the state on screen. */
export function embedCode(root) {
  const src = new URL(`embed/${root.dataset.embed}/`, editionHome());
  addressNow();
  src.search = location.search;
  const theme = document.documentElement.dataset.theme; // an embed's theme= (embed.js took it off)
  if (theme) src.searchParams.set("theme", theme);
  const title = root.querySelector(".fig-title").textContent.replace(/\s+/g, " ").trim();
  return `<iframe src="${escapeAttribute(src.href)}" title="${escapeAttribute(t("share.frame-title", { title }))}" ` +
    `width="100%" height="${root.dataset.embedHeight}" style="border:0" loading="lazy" ` +
    'allow="clipboard-write" data-attention-bench></iframe>';
}

/** An element's CSS transform as an SVG transform attribute (origin included), or null. */
function transformAttribute(element, computed) {
  const matrix = computed.getPropertyValue("transform");
  if (!matrix || matrix === "none") return null;
  let [ox, oy] = computed.getPropertyValue("transform-origin").split(" ").map(parseFloat);
  if (computed.getPropertyValue("transform-box") === "fill-box" && element.getBBox) {
    const box = element.getBBox(); // the origin is then measured from the element's own box
    ox += box.x;
    oy += box.y;
  }
  if (!ox && !oy) return matrix;
  return `translate(${ox} ${oy}) ${matrix} translate(${-ox} ${-oy})`;
}

/** An element's CSS translate property (a phone's dropped dials) as an SVG transform, or "". */
function translateAttribute(computed) {
  const shift = computed.getPropertyValue("translate");
  if (!shift || shift === "none") return "";
  const [x, y = "0"] = shift.split(" ");
  return `translate(${parseFloat(x)} ${parseFloat(y)}) `;
}

/**
 * A standalone SVG file of a drawing as the reader sees it: every computed style and
 * transform written into attributes, in the light palette, on its own light background,
 * so it reads on a white slide whatever the reader's colour scheme.
 */
export function standaloneSvg(svg) {
  const clone = svg.cloneNode(true);
  const originals = [svg, ...svg.querySelectorAll("*")];
  const copies = [clone, ...clone.querySelectorAll("*")];
  const unseen = []; // drawn parts the page hides (display: none): the file leaves them out too
  const background = inLightPalette(() => {
    originals.forEach((element, i) => {
      const computed = getComputedStyle(element);
      if (DRAWN.has(element.localName) && !element.closest("defs")
        && computed.getPropertyValue("display") === "none") unseen.push(copies[i]);
      for (const name of STYLE) copies[i].setAttribute(name, computed.getPropertyValue(name));
      // CSS transforms beat the attribute; a translate property comes before either
      const transform = transformAttribute(element, computed) ?? element.getAttribute("transform");
      const shift = translateAttribute(computed);
      if (transform || shift) copies[i].setAttribute("transform", (shift + (transform ?? "")).trim());
      copies[i].removeAttribute("class");
      copies[i].removeAttribute("tabindex");
    });
    return getComputedStyle(document.body).getPropertyValue("background-color");
  });
  for (const copy of unseen) copy.remove();
  const drawn = svg.getBoundingClientRect(); // the size it has on the page
  const box = svg.viewBox.baseVal;
  const backdrop = svgElement("rect", { x: box.x, y: box.y, width: box.width, height: box.height,
    fill: background, "data-role": "background" });
  const labels = [...clone.children].filter((child) => ["title", "desc"].includes(child.localName));
  if (labels.length) labels.at(-1).after(backdrop);
  else clone.prepend(backdrop);
  clone.setAttribute("xmlns", SVG_NS);
  clone.setAttribute("width", Math.round(drawn.width));
  clone.setAttribute("height", Math.round(drawn.height));
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(clone);
}

const CAPTION_LINE = 20; // a caption line's pitch under a downloaded drawing, in its units

/** The standalone drawing with lines under it, in Python's words, saying which state it shows
 * (a drawing on a slide otherwise carried its sentence, head and T only in its file's name). */
export function captioned(text, lines) {
  if (!lines.length) return text;
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  const [x, y, width, height] = root.getAttribute("viewBox").split(/[\s,]+/).map(Number);
  const added = CAPTION_LINE * lines.length + CAPTION_LINE / 2;
  root.setAttribute("viewBox", `${x} ${y} ${width} ${height + added}`);
  root.setAttribute("height", Math.round((Number(root.getAttribute("height")) * (height + added)) / height));
  root.querySelector('[data-role="background"]')?.setAttribute("height", height + added);
  lines.forEach((line, k) => {
    const label = svgElement("text", { x: x + 8, y: y + height + CAPTION_LINE * (k + 1),
      "font-family": "DejaVu Sans, sans-serif", "font-size": 14, fill: "rgb(51, 51, 51)",
      "data-role": "caption" });
    setText(label, line);
    root.append(label); // (adopted into the parsed file)
  });
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(root);
}

/** Keep the embed's "Open in …" link on the state on screen (the address changes as readers work). */
function followState(root) {
  const link = document.querySelector(".embed-source a");
  if (!link) return;
  const update = () => setAttr(link, "href", deepLink(root));
  for (const type of ["pointerenter", "focus", "pointerdown", "click", "contextmenu"]) {
    link.addEventListener(type, update);
  }
}

/** Save a file: its text, or a Blob (a PNG). */
function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = html("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function copy(text, output, status) {
  output.value = text;
  output.hidden = false;
  output.select();
  try {
    await navigator.clipboard.writeText(text);
    setText(status, t("share.copied"));
  } catch {
    setText(status, t("share.select"));
  }
}

/** Save a drawing's SVG text as a PNG at twice its size (a slide's), saying so. */
async function downloadPng(name, text, status) {
  setText(status, t("share.painting"));
  try {
    const { pngOf, SCALE } = await import("./png.js");
    download(name, "image/png", await pngOf(text, SCALE));
    setText(status, t("share.downloaded-png", { name, scale: SCALE }));
  } catch (error) {
    setText(status, t("share.no-png", { why: (error && error.message) || error }));
  }
}

/** Download the figure's numbers (csv, json) or its drawing (svg or png, as it is at the
 * click), under the file name Python gives the state on screen. */
function exportNumbers(root, format, status, drawing = null) {
  const svg = format === "svg" || format === "png" ? standaloneSvg(drawing) : null;
  setText(status, svg ? t("share.naming") : t("share.computing"));
  addressNow();
  const url = Object.fromEntries(new URLSearchParams(location.search));
  runtime.request(`export-${root.id}`, { figure: "export", of: root.dataset.embed, url }, (answer) => {
    if (!answer.ok) {
      setText(status, answer.errors.map((e) => e.message).join(" "));
      return;
    }
    const { filename, csv, json, caption } = answer.data;
    if (format === "png") return downloadPng(`${filename}.png`, captioned(svg, caption ?? []), status);
    if (format === "svg") download(`${filename}.svg`, "image/svg+xml", captioned(svg, caption ?? []));
    else if (format === "csv") download(`${filename}.csv`, "text/csv", csv);
    else download(`${filename}.json`, "application/json", JSON.stringify(json, null, 2) + "\n");
    setText(status, t("share.downloaded", { name: `${filename}.${format}` }));
  });
}

export function mount(root) {
  for (const wrap of root.querySelectorAll(".table-wrap")) watchScrolling(wrap);
  if (document.querySelectorAll("[data-embed]").length === 1) followState(root);
  const drawing = root.querySelector("svg.bench-drawing, svg.value-plot");
  const status = html("p", { class: "share-status", role: "status" });
  const output = html("textarea", { class: "share-output", readonly: "", rows: "3", hidden: "",
    "aria-label": t("share.text") });
  const button = (label, action) => {
    const b = html("button", { type: "button" }, label);
    b.addEventListener("click", action);
    return b;
  };
  const tools = [
    button(t("share.copy-link"), () => copy(deepLink(root), output, status)),
    button(t("share.copy-embed"), () => copy(embedCode(root), output, status)),
  ];
  if ("export" in root.dataset) { // figures whose numbers Python can export
    tools.push(button(t("share.csv"), () => exportNumbers(root, "csv", status)));
    tools.push(button(t("share.json"), () => exportNumbers(root, "json", status)));
  }
  if (drawing) {
    const save = (format) => () => {
      writeNow(root); // a drawing off screen may not show the last click's state yet
      if ("export" in root.dataset) return exportNumbers(root, format, status, drawing);
      const name = `attention-bench-${root.dataset.embed}.${format}`;
      if (format === "png") return downloadPng(name, standaloneSvg(drawing), status);
      download(name, "image/svg+xml", standaloneSvg(drawing));
      setText(status, t("share.downloaded-drawing"));
    };
    tools.push(button(t("share.svg"), save("svg")));
    tools.push(button(t("share.png"), save("png")));
  }
  const panel = html("details", { class: "share" }, [
    html("summary", {}, t("share.summary")),
    html("div", { class: "share-tools" }, tools), output, status,
  ]);
  const caption = root.querySelector(":scope > figcaption");
  if (caption) caption.before(panel); // a figcaption stays the figure's last child
  else root.append(panel);
}
