// Answering in Pyodide under Node as the browser's worker.js does when Python asks for a data
// file first (attention.protocol.bridge.NEEDS): the file, given locally by its name on the
// site, is written where Python reads it and the request is asked again. A file not given
// leaves the answer as it is: it says what it needs. (sitebuild/answers.mjs, tests/parity.mjs)

import { readFileSync } from "node:fs";

const NEEDS = '{"needs": ';

/** A request's answer from `handle`, with the data files in `local` ({name: path}) given. */
export function answering(pyodide, handle, local) {
  return (request) => {
    const first = handle(request);
    if (!first.startsWith(NEEDS)) return first;
    const { needs } = JSON.parse(first);
    if (!local[needs.file]) return first;
    pyodide.FS.mkdirTree(needs.path.slice(0, needs.path.lastIndexOf("/")));
    pyodide.FS.writeFile(needs.path, readFileSync(local[needs.file]));
    return handle(request);
  };
}
