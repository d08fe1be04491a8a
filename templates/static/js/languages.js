// The language switch in the header: the same page in another edition (zh/…, ar/…), in the
// state on screen. A link to it takes the address's state (its ?… and #…) as it is followed,
// opened in a new tab, copied or focused, so the reader finds the figure where they left it.
// An address that leaves the sentence to the page opens the other edition's own first sentence
// (a translation, its words in other places): the positions in it (data-positions: a query
// word, a shut stopcock) are left out, and that edition's defaults stand.
// (The other edition's page loads anew: its modules say their words in its language; nav.js
// leaves a link to another edition to the browser.)

import { flush } from "./address.js";

function keepState(event) {
  const link = event.target.closest?.("a[data-keeps-state]");
  if (!link) return;
  flush(); // the state just drawn may not be in the address yet
  const url = new URL(link.href);
  url.search = location.search;
  if (!url.searchParams.has("sentence")) {
    const positions = link.closest("[data-positions]")?.dataset.positions.split(" ") ?? [];
    for (const name of positions) url.searchParams.delete(name);
  }
  url.hash = location.hash;
  link.href = url.href;
}

for (const type of ["click", "auxclick", "contextmenu", "focusin", "pointerover"]) {
  document.addEventListener(type, keepState, true);
}
