// The link builder, under a live example of the embed guide: the teacher sets the figure in
// the example's frame as students should first see it, and the link, the iframe snippet and
// the fragment command follow the frame's state (its address.js says when it changes), each
// with a copy button; the link is drawn as a QR code for a projector, here, with no service.

import { html, setText, svg } from "./dom.js";
import qrcode from "../vendor/qrcode.js";
import { t } from "./i18n.js";

const QUIET = 4; // the blank modules around a QR code that a scanner needs

/** Draw text as a QR code: an SVG of its dark modules (data-m="row,column"), white around. */
function drawQr(box, text) {
  const qr = qrcode(0, "M"); // the smallest version that holds the text, 15 % of it recoverable
  qr.addData(text, "Byte");
  qr.make();
  const n = qr.getModuleCount();
  const size = n + 2 * QUIET;
  const modules = [];
  for (let r = 0; r < n; r += 1) {
    for (let c = 0; c < n; c += 1) {
      if (qr.isDark(r, c)) modules.push(svg("rect", { x: c + QUIET, y: r + QUIET, width: 1, height: 1, "data-m": `${r},${c}` }));
    }
  }
  box.replaceChildren(svg("svg", { viewBox: `0 0 ${size} ${size}`, class: "qr", role: "img",
    "aria-label": t("builder.qr"), "data-modules": n, "shape-rendering": "crispEdges" }, [
    svg("rect", { width: size, height: size, fill: "#fff" }),
    svg("g", { fill: "#000" }, modules),
  ]));
}

/** One output: a label, the text, and its copy button, which says when it has copied (words:
 * its label, its button's and what it says once copied). */
function field(id, [label, copyLabel, copied], rows, status) {
  const text = html("textarea", { id, readonly: "", rows: String(rows), spellcheck: "false", class: "share-output" });
  const copy = html("button", { type: "button" }, copyLabel);
  copy.addEventListener("click", async () => {
    text.select();
    try {
      await navigator.clipboard.writeText(text.value);
      setText(status, copied);
    } catch {
      setText(status, t("builder.refused"));
    }
  });
  return { text, block: html("div", { class: "builder-field" }, [html("label", { for: id }, label), text, copy]) };
}

/**
 * Put a builder after `slot` for the example `frame` of the guide's `entry`; returns how to
 * take it away. The entry holds what the guide wrote for its figure: the snippet (its address
 * on this site, its suggested height) and the link to the figure in its chapter.
 */
export function mount(slot, frame, entry) {
  const id = entry.dataset.embedEntry;
  const status = html("p", { class: "builder-status", role: "status" });
  const link = field(`builder-${id}-link`, [t("builder.link"), t("builder.copy-link"), t("builder.copied-link")], 2, status);
  const snippet = field(`builder-${id}-snippet`, [t("builder.snippet"), t("builder.copy-snippet"), t("builder.copied-snippet")], 4, status);
  const command = field(`builder-${id}-command`, [t("builder.command"), t("builder.copy-command"), t("builder.copied-command")], 2, status);
  const height = html("p", { class: "builder-note" });
  // This computer's own address (a copy of the site run locally) reaches no student's device
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname)
    ? html("p", { class: "builder-warning", role: "note" }, t("builder.local", { host: location.host }))
    : null;
  const qr = html("figure", { class: "builder-qr" });
  // the QR code as a file, for a slide: the SVG drawn here, black on white, any size sharp
  const saveQr = html("a", { class: "builder-qr-save", download: `${id}-link-qr.svg`, href: "#" }, t("builder.save-qr"));
  // the state printed for a class, where the figure has a handout (the guide says so)
  const handout = entry.dataset.handout
    ? html("a", { class: "builder-handout", href: "#" }, t("builder.handout")) // (update() sets it)
    : null;
  const panel = html("section", { class: "link-builder", "aria-label": t("builder.label", { id }) }, [
    html("p", {}, t("builder.intro")),
    ...(local ? [local] : []),
    link.block, qr, html("p", { class: "builder-note" }, [saveQr]),
    ...(handout ? [html("p", { class: "builder-note" }, [handout])] : []),
    snippet.block, height, command.block,
    html("p", { class: "builder-note" }, t("builder.command-note")),
    status,
  ]);
  slot.after(panel);
  const chapter = entry.querySelector("a[href*='#fig-']");
  const code = entry.querySelector("[data-snippet]").textContent;
  const suggested = Number(/height="(\d+)"/.exec(code)[1]);

  let opening = 0; // the frame's height in the state it opens on, at the frame's own width
  let touched = false; // the teacher has acted in the frame: what it draws now is not the opening
  const update = () => {
    let query = "";
    try {
      const state = new URLSearchParams(frame.contentWindow.location.search);
      state.delete("theme");
      query = state.toString();
    } catch { /* the frame is between pages: its last state stays */ }
    const url = new URL(chapter.href);
    url.search = query;
    link.text.value = url.href;
    const src = new URL(/src="([^"]+)"/.exec(code)[1]);
    src.search = query;
    // The suggested height was measured in a course page's column; the frame here may be
    // narrower. What this state adds to the figure as it opens, measured side by side in the
    // frame, is added to the suggested height.
    const drawn = parseFloat(frame.style.height) || 0; // as the frame's page said (guide.js)
    if (!touched && drawn) opening = drawn; // its height is reported before its address is written
    const extra = opening && drawn > opening ? Math.ceil(drawn - opening) : 0;
    const tall = suggested + extra;
    snippet.text.value = code.replace(/src="[^"]+"/, `src="${src.href}"`).replace(/height="\d+"/, `height="${tall}"`);
    setText(height, extra
      ? t("builder.taller", { tall, extra, suggested })
      : t("builder.height", { tall }));
    command.text.value = `python build.py fragment ${id}${query ? ` --url "${query}"` : ""} --output figure.html`;
    drawQr(qr, url.href);
    URL.revokeObjectURL(saveQr.href);
    saveQr.href = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(qr.firstChild)],
      { type: "image/svg+xml" }));
    if (handout) {
      const printable = new URL(entry.dataset.handout, location.href);
      printable.search = query;
      handout.href = printable.href;
    }
  };
  const listen = () => {
    try {
      frame.contentWindow.addEventListener("attention-bench:address", update);
      for (const type of ["pointerdown", "keydown", "input", "change"]) {
        frame.contentWindow.addEventListener(type, () => { touched = true; }, { capture: true });
      }
    } catch { /* another origin: cannot happen here, the guide shows this site's own pages */ }
    update();
  };
  frame.addEventListener("load", listen);
  // the frame's page says its height (embed.js); guide.js, listening first, has set it
  const heard = (event) => event.source === frame.contentWindow && event.data?.type === "attention-bench:height" && update();
  addEventListener("message", heard);
  update();
  return () => {
    removeEventListener("message", heard);
    panel.remove();
  };
}
