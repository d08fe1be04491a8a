// Answer requests with attention.protocol.bridge.handle_json inside Pyodide under Node, for the build's
// precomputed answer tables (sitebuild/answers.py): the same runtime and wheel as the browser.
//
// Usage: node sitebuild/answers.mjs <pyodideDir> <wheelPath> <files> < requests.json
//   stdin:  a JSON array of request strings; stdout: {"pyodide": version, "answers": [text]}
//   files:  JSON, {name on the site: local path} of the data files Python may ask for
// Nothing is fetched: the runtime, numpy, the wheel and the data files are local files. A
// request whose answer needs a data file first gets it as the browser's worker.js does.

import path from "node:path";
import { pathToFileURL } from "node:url";
import { answering } from "./needs.mjs";

const log = (...args) => process.stderr.write(args.map(String).join(" ") + "\n");
console.log = log; // Pyodide reports package loading through console.log: keep stdout clean
globalThis.fetch = async (resource) => {
  throw new Error(`answers.mjs: network access refused: ${resource}`);
};

async function main() {
  const [dir, wheel, files] = process.argv.slice(2);
  const local = JSON.parse(files || "{}");
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const requests = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const indexURL = path.resolve(dir) + path.sep;
  const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
  const pyodide = await loadPyodide({ indexURL, packages: ["numpy", path.resolve(wheel)],
    stdout: log, stderr: log });
  const handle = pyodide.pyimport("attention.protocol.bridge").handle_json;
  const answer = answering(pyodide, handle, local); // answers.py refuses a "needs" answer for a table
  const answers = requests.map(answer);
  await new Promise((resolve, reject) => process.stdout.write(
    JSON.stringify({ pyodide: pyodide.version, answers }), (e) => (e ? reject(e) : resolve())));
}

main().then(() => process.exit(0), (error) => {
  log(`answers.mjs: ${(error && error.stack) || error}`);
  process.exit(1);
});
