// The embed guide: snippets that point to this copy of the site, a Copy button on each,
// and live examples on demand, each with a link builder under it (builder.js).

import { html, setAttr, setText } from "./dom.js";
import { t } from "./i18n.js";

const base = new URL("../", location.href).href;
const placeholder = "https://example.org/attention-bench/";
for (const code of document.querySelectorAll("[data-snippet]")) {
  setText(code, code.textContent.replace(placeholder, base));
}
const note = document.querySelector(".guide-base");
setText(note.querySelector('[data-bind="base"]'), base);
note.hidden = false;
document.querySelector('[data-bind="placeholder-note"]').hidden = true; // replaced: no placeholder left

/** Copy a snippet's text; where the clipboard is refused, select it for the reader instead. */
async function copySnippet(pre, status) {
  const text = pre.textContent;
  try {
    await navigator.clipboard.writeText(text);
    setText(status, t("guide.copied"));
  } catch {
    getSelection().selectAllChildren(pre);
    setText(status, t("guide.selected"));
  }
}

for (const pre of document.querySelectorAll("pre.snippet")) {
  const snippet = pre.querySelector("[data-snippet]");
  const what = snippet ? t("guide.copy-snippet", { name: snippet.dataset.snippet }) : t("guide.copy-script");
  const button = html("button", { type: "button", class: "copy-snippet", "aria-label": what }, t("guide.copy"));
  const status = html("span", { class: "copy-status", role: "status" });
  button.addEventListener("click", () => copySnippet(pre, status));
  pre.before(html("p", { class: "snippet-wrap" }, [button, status]));
}

// The same few lines the guide asks course pages to add.
addEventListener("message", (event) => {
  const data = event.data;
  if (!data || data.type !== "attention-bench:height") return;
  for (const frame of document.querySelectorAll("iframe[data-attention-bench]")) {
    if (frame.contentWindow === event.source) frame.style.height = `${data.height}px`;
  }
});

const builders = new Map(); // an example's id -> how to take its link builder away

/** Show or hide one live example; the button stays, says which it will do, and keeps focus. */
function toggleExample(button) {
  const id = button.dataset.embedExample;
  const slot = document.querySelector(`[data-example-slot="${id}"]`);
  const open = button.getAttribute("aria-expanded") !== "true";
  builders.get(id)?.();
  builders.delete(id);
  if (open) {
    const frame = html("iframe", {
      src: `${base}embed/${id}/`, title: t("guide.example", { id }), width: "100%",
      height: button.dataset.height, allow: "clipboard-write", "data-attention-bench": "",
    });
    slot.replaceChildren(frame);
    const entry = slot.closest("[data-embed-entry]");
    import("./builder.js").then((builder) => {
      if (frame.isConnected) builders.set(id, builder.mount(slot, frame, entry));
    });
  } else {
    slot.replaceChildren();
  }
  setAttr(button, "aria-expanded", open);
  setText(button, open ? t("guide.hide") : t("guide.show"));
}

for (const button of document.querySelectorAll("[data-embed-example]")) {
  button.hidden = false;
  setAttr(button, "aria-expanded", false);
  button.addEventListener("click", () => toggleExample(button));
}
