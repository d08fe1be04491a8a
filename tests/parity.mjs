// Run attention.protocol.bridge.handle_json inside real Pyodide under Node, for tests/test_parity.py.
//
// Usage: node tests/parity.mjs <pyodideDir> <wheelPath> [files] < requests.json
//   files:  JSON, {name on the site: local path} of the data files Python may ask for: an
//           answer that asks for one (attention.protocol.bridge.NEEDS) gets it as the site's
//           worker.js does (written where Python reads it), and the request is asked again
//   stdin:  a JSON array of request strings
//   stdout: one JSON object {"python", "numpy", "pyodide", "network", "answers", "failures"}
//           answers[i] is handle_json's answer to request i, or null if the call threw (as
//           the site's worker does, a throw is caught and recorded in failures as {index,
//           message}; the remaining requests are still tried, but the versions are then not read).
// Everything else (Pyodide's "Loading numpy, attention" messages, Python's prints) goes to
// stderr, so stdout holds exactly one JSON document. No network: the runtime, numpy and the
// attention wheel are all read from local files, and fetch() is replaced by a function that
// refuses (and records) any request, so a stray download fails loudly instead of happening.

import path from "node:path";
import { pathToFileURL } from "node:url";
import { answering } from "../sitebuild/needs.mjs";

const log = (...args) => process.stderr.write(args.map(String).join(" ") + "\n");
console.log = log; // Pyodide reports package loading through console.log: keep stdout clean
console.info = log;

const refused = [];
globalThis.fetch = async (resource) => {
  const url = String((resource && resource.url) || resource);
  refused.push(url);
  throw new Error(`parity.mjs: network access refused: ${url}`);
};

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

async function main() {
  const [dirArg, wheelArg, filesArg] = process.argv.slice(2);
  const local = JSON.parse(filesArg || "{}");
  if (!dirArg || !wheelArg) {
    throw new Error("usage: node tests/parity.mjs <pyodideDir> <wheelPath> < requests.json");
  }
  const indexURL = path.resolve(dirArg) + path.sep;
  // A plain absolute path: in Node, Pyodide reads it with fs (a file:// URL would only have
  // its scheme stripped, not its %-escapes decoded).
  const wheel = path.resolve(wheelArg);

  const requests = JSON.parse(await readStdin());
  if (!Array.isArray(requests) || !requests.every((r) => typeof r === "string")) {
    throw new Error("stdin must be a JSON array of request strings");
  }

  const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
  const pyodide = await loadPyodide({
    indexURL,
    packages: ["numpy", wheel],
    stdout: (line) => log(line),
    stderr: (line) => log(line),
  });

  const handle = pyodide.pyimport("attention.protocol.bridge").handle_json; // once, as the worker does
  const provided = answering(pyodide, handle, local);
  const failures = [];
  const answers = requests.map((request, index) => {
    try {
      return provided(request);
    } catch (error) {
      failures.push({ index, message: String((error && error.message) || error).slice(0, 2000) });
      return null;
    }
  });
  if (failures.length) {
    // A throw can be a Pyodide fatal error, after which the interpreter is not trustworthy.
    await write({ pyodide: pyodide.version, network: refused, answers, failures });
    return;
  }
  handle.destroy();

  const info = JSON.parse(
    pyodide.runPython(
      "import json, sys, numpy, attention\n" +
        "json.dumps({'python': list(sys.version_info[:3]), 'numpy': numpy.__version__,\n" +
        "            'attention_file': attention.__file__})",
    ),
  );
  await write({ ...info, pyodide: pyodide.version, network: refused, answers, failures });
}

function write(envelope) {
  return new Promise((resolve, reject) =>
    process.stdout.write(JSON.stringify(envelope), (err) => (err ? reject(err) : resolve())),
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    log(`parity.mjs: ${(error && error.stack) || error}`);
    process.exit(1);
  },
);
