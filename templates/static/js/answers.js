//# allFunctionsCalledOnLoad
// Precomputed answers: the bridge's own answers to every state one click away from what the
// page first shows, computed when the site was built (sitebuild/answers.py). A request found
// here is answered at once, before or after Python is ready; any other goes to Python.

// url -> Promise of a table, fetched once per visit
const tables = new Map();
// request key -> the answer, as the bridge wrote it
const keys = new Map();
let pending = 0; // tables still on their way

// The one key of a request: JSON with object keys sorted and no spaces. Python's
// attention.protocol.neighbours.key writes the same text (json.dumps(sort_keys=True, separators=(",", ":"),
// ensure_ascii=False)) for the requests the tables hold (strings, integers, booleans, null).
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const names = Object.keys(value).filter((name) => value[name] !== undefined).sort();
    return `{${names.map((name) => `${JSON.stringify(name)}:${canonical(value[name])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

// Fetch the tables at these URLs (space-separated), each once per visit, once `after`
// resolves (e.g. after the first paint); a request made meanwhile waits for them, unless
// they are fetched `ahead` for another page (they cannot answer this page's requests).
export function load(urls, after = Promise.resolve(), ahead = false, priority = "low") {
  const wanted = (urls || "").split(" ").filter(Boolean).map((u) => new URL(u, document.baseURI).href);
  return Promise.all(wanted.map((url) => {
    if (!tables.has(url)) {
      const counted = ahead ? 0 : 1;
      pending += counted;
      const early = globalThis.attentionBenchTables?.[url]; // opening.js asked for it already
      if (early) delete globalThis.attentionBenchTables[url];
      tables.set(url, (early || after.then(() => fetch(url, { priority })))
        .then((response) => (response.ok ? response.json() : null))
        .then((table) => {
          for (const [key, index] of Object.entries(table?.keys || {})) keys.set(key, table.answers[index]);
        })
        .catch(() => {}) // without a table every click simply goes to Python
        .finally(() => { pending -= counted; }));
    }
    return tables.get(url);
  }));
}

/** True while a table is still being fetched. */
export const loading = () => pending > 0;

/** Resolves once every table asked for so far has arrived (or failed). */
export const settled = () => Promise.all(tables.values());

/** The answer to a request sent as JSON text, as a fresh object, or undefined. A request's
 * `have` (the matrix the page holds, attention.protocol.delta) changes no state: the tables are keyed
 * without it, and their answers are whole. */
export function lookup(json) {
  const answer = keys.get(keyOf(json));
  return answer === undefined ? undefined : structuredClone(answer);
}

/** Whether a table holds the answer to a request sent as JSON text (no copy made). */
export const has = (json) => keys.has(keyOf(json));

function keyOf(json) {
  const { have, ...request } = JSON.parse(json);
  return canonical(request);
}

// A link's state drawn from the tables brings its own neighbours: each state one click from a
// figure's first state has a table of the states one click from it (sitebuild/answers.py,
// NEAR), found through the figure's map, named in the page's data-near.
const maps = new Map(); // map URL -> Promise of Map(address key -> table URL)

/** Fetch the neighbours of the state at `address` (its URL parameters, as the bridge wrote
 * them), if the build made a table of them, so that the reader's next click is answered at
 * once too. */
export function near(figure, address) {
  const mapURL = (document.body.dataset.near || "").split(" ").filter(Boolean)
    .map((u) => new URL(u, document.baseURI).href)
    .find((u) => new URL(u).pathname.split("/").pop().startsWith(`${figure}.`));
  // Offline the tables of neighbours (fetched only on demand, never saved for offline use)
  // cannot arrive: the next click goes to Python, and no failed request is made.
  if (!mapURL || !address || navigator.onLine === false) return;
  if (!maps.has(mapURL)) {
    maps.set(mapURL, fetch(mapURL, { priority: "low" }).then((r) => (r.ok ? r.json() : []))
      .then((pairs) => new Map(pairs.map(([table, key]) => [key, new URL(table, mapURL).href])))
      .catch(() => new Map()));
  }
  maps.get(mapURL).then((tablesOf) => {
    const table = tablesOf.get(canonical({ figure, url: address }));
    if (table) load(table);
  });
}

// Answers Python computed ahead in this visit (runtime.warm), as it wrote them: request text →
// answer text. The bridge's answer depends on the request's text alone (attention.protocol.bridge
// keeps its own by the same key), so one found here is the one Python would send.
const computed = new Map();
const COMPUTED = 64; // the newest, as many as the bridge keeps: every row of a 40-word sentence

/** Keep Python's answer to a request it computed ahead (the oldest kept goes). */
export function keepComputed(json, answer) {
  computed.delete(json);
  computed.set(json, answer);
  if (computed.size > COMPUTED) computed.delete(computed.keys().next().value);
}

/** Python's answer to this exact request text, computed ahead, as a fresh object, or undefined. */
export function takeComputed(json) {
  const answer = computed.get(json);
  if (answer === undefined) return undefined;
  keepComputed(json, answer); // the newest again
  return JSON.parse(answer);
}

/** Whether Python's answer to this request text was computed ahead and is kept. */
export const hasComputed = (json) => computed.has(json);

/** How many answers Python computed ahead are kept (for tests). */
export const computedSize = () => computed.size;

/** How many precomputed answers this page knows (for tests and the benchmark). */
export const size = () => keys.size;

// This module is also the page's first script (an async module in its <head>, run as soon as
// it has loaded, while the page still parses): it starts the page's tables, named in the head,
// at once, and first of all when the page opens a link's state (opening.js waits for them).
const named = globalThis.document?.querySelector('meta[name="attention-bench-answers"]'); // (none under Node)
if (named) load(named.content, undefined, false, location.search ? "high" : "low");
