// The embed guide: snippets that point to this copy of the site, a Copy button on each,
// and live examples on demand.

const base = new URL("../", location.href).href;
const placeholder = "https://example.org/attention-bench/";
for (const code of document.querySelectorAll("[data-snippet]")) {
  code.textContent = code.textContent.replace(placeholder, base);
}
const note = document.querySelector(".guide-base");
note.querySelector('[data-bind="base"]').textContent = base;
note.hidden = false;
document.querySelector('[data-bind="placeholder-note"]').hidden = true; // replaced: no placeholder left

/** Copy a snippet's text; where the clipboard is refused, select it for the reader instead. */
async function copySnippet(pre, status) {
  const text = pre.textContent;
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = "Copied.";
  } catch {
    getSelection().selectAllChildren(pre);
    status.textContent = "Selected: press Ctrl+C (or ⌘C) to copy.";
  }
}

for (const pre of document.querySelectorAll("pre.snippet")) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy-snippet";
  const what = pre.querySelector("[data-snippet]") ? `the ${pre.querySelector("[data-snippet]").dataset.snippet} snippet` : "the script";
  button.textContent = "Copy";
  button.setAttribute("aria-label", `Copy ${what}`);
  const status = document.createElement("span");
  status.className = "copy-status";
  status.setAttribute("role", "status");
  button.addEventListener("click", () => copySnippet(pre, status));
  const bar = document.createElement("p");
  bar.className = "snippet-wrap";
  bar.append(button, status);
  pre.before(bar);
}

// The same few lines the guide asks course pages to add.
addEventListener("message", (event) => {
  const data = event.data;
  if (!data || data.type !== "attention-bench:height") return;
  for (const frame of document.querySelectorAll("iframe[data-attention-bench]")) {
    if (frame.contentWindow === event.source) frame.style.height = `${data.height}px`;
  }
});

/** Show or hide one live example; the button stays, says which it will do, and keeps focus. */
function toggleExample(button) {
  const id = button.dataset.embedExample;
  const slot = document.querySelector(`[data-example-slot="${id}"]`);
  const open = button.getAttribute("aria-expanded") !== "true";
  if (open) {
    const frame = document.createElement("iframe");
    Object.assign(frame, { src: `${base}embed/${id}/`, title: `Live example: ${id}`, width: "100%" });
    frame.height = button.dataset.height;
    frame.allow = "clipboard-write";
    frame.dataset.attentionBench = "";
    slot.replaceChildren(frame);
  } else {
    slot.replaceChildren();
  }
  button.setAttribute("aria-expanded", String(open));
  button.textContent = open ? "Hide the live example" : "Show a live example here";
}

for (const button of document.querySelectorAll("[data-embed-example]")) {
  button.hidden = false;
  button.setAttribute("aria-expanded", "false");
  button.addEventListener("click", () => toggleExample(button));
}
