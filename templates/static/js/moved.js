// An embed's old address (embed/bench-table/) sends the reader on to the figure's own
// (embed/<its id>/), keeping everything the address says: the state, the theme, the anchor.
// location.replace: Back leaves the frame's history as if the old address had never been.

const to = new URL(document.body.dataset.movedTo, location.href);
to.search = location.search;
to.hash = location.hash;
location.replace(to.href);
