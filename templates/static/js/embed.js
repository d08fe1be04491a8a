// An embedded figure: the course page may fix its colours (theme=light|dark), and the
// figure tells its parent page how tall it is, whenever that changes.

import { withQuery } from "./address.js";
import { forceScheme } from "./theme.js";

// Runs before page.js reads the address: the theme is the host page's choice, not figure state.
const params = new URLSearchParams(location.search);
const theme = params.get("theme");
if (params.has("theme")) {
  if (theme === "light" || theme === "dark") forceScheme(theme);
  params.delete("theme");
  history.replaceState(history.state, "", withQuery(params.toString()));
}

const id = document.body.dataset.embedId;
if (window.parent !== window) {
  let last = 0;
  const report = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: "attention-bench:height", embed: id, height }, "*");
  };
  new ResizeObserver(report).observe(document.documentElement);
  report();
}
