// A classic script, run before the page is first painted: a page opened at an address that
// carries a figure's state (?query=grid) keeps its live figures out of sight until page.js has
// drawn that state (from the precomputed tables, at once) or found that only Python can, so
// no frame ever shows them in their default state first. (The stylesheet shows them anyway
// after three seconds, should page.js never say so; without JavaScript nothing is hidden.)
if (location.search) document.documentElement.dataset.opening = "";

// The tables that hold the link's state are what the figures wait for: fetch them now, while
// the page parses (answers.js takes these requests over; a <link rel="preload"> would do the
// same, but WebKit never hands one to fetch(), and fetched them twice).
const named = document.querySelector('meta[name="attention-bench-answers"]');
if (location.search && named) {
  window.attentionBenchTables = {};
  for (const name of named.content.split(" ").filter(Boolean)) {
    const url = new URL(name, document.baseURI).href;
    window.attentionBenchTables[url] = fetch(url, { priority: "high" });
  }
}
