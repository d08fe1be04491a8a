// A drawing for a slide: the standalone SVG file of a figure (share.js) painted at twice its
// size into a PNG, in the browser, from the file's own text (no server, no other origin).

import { html } from "./dom.js";

export const SCALE = 2; // a slide is projected larger than a page shows it

/** The PNG of an SVG file's text at SCALE × its width and height attributes, as a Blob. */
export async function pngOf(svgText, scale = SCALE) {
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const width = Number(doc.documentElement.getAttribute("width"));
  const height = Number(doc.documentElement.getAttribute("height"));
  const url = URL.createObjectURL(new Blob([svgText], { type: "image/svg+xml" }));
  try {
    const image = new Image(width, height);
    image.src = url;
    await image.decode();
    const canvas = html("canvas", { width: Math.round(width * scale), height: Math.round(height * scale) });
    canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise((done, fail) => canvas.toBlob(
      (blob) => (blob ? done(blob) : fail(new Error("the browser could not make the PNG"))), "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}
