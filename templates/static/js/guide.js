// The embed guide: snippets that point to this copy of the site, and live examples on demand.

const base = new URL("../", location.href).href;
const placeholder = "https://example.org/attention-bench/";
for (const code of document.querySelectorAll("[data-snippet]")) {
  code.textContent = code.textContent.replace(placeholder, base);
}
const note = document.querySelector(".guide-base");
note.querySelector('[data-bind="base"]').textContent = base;
note.hidden = false;

// The same few lines the guide asks course pages to add.
addEventListener("message", (event) => {
  const data = event.data;
  if (!data || data.type !== "attention-bench:height") return;
  for (const frame of document.querySelectorAll("iframe[data-attention-bench]")) {
    if (frame.contentWindow === event.source) frame.style.height = `${data.height}px`;
  }
});

for (const button of document.querySelectorAll("[data-embed-example]")) {
  button.hidden = false;
  button.addEventListener("click", () => {
    const id = button.dataset.embedExample;
    const frame = document.createElement("iframe");
    Object.assign(frame, { src: `${base}embed/${id}/`, title: `Live example: ${id}`, width: "100%" });
    frame.height = button.dataset.height;
    frame.dataset.attentionBench = "";
    document.querySelector(`[data-example-slot="${id}"]`).replaceChildren(frame);
    button.hidden = true;
  });
}
