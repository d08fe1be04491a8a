// A classic script, run before the page is first painted: a page opened at an address that
// carries a figure's state (?query=grid) keeps its live figures out of sight until page.js has
// drawn that state (from the precomputed tables, at once) or found that only Python can, so
// no frame ever shows them in their default state first. (The stylesheet shows them anyway
// after three seconds, should page.js never say so; without JavaScript nothing is hidden.)
if (location.search) document.documentElement.dataset.opening = "";
