// What one visit's start of Python worked out, kept for the next visit (in the worker).
//
// A reader who comes back has every file cached already, yet starting Python took as long as
// the first time: starting the interpreter (2 s of 3.4 here), unpacking NumPy's wheel and
// compiling its Python files were done again on every visit. So the first visit keeps two
// things in Cache Storage, and the next one starts from them:
//
// - the interpreter's memory just after it started, before any package: Pyodide's memory
//   snapshot (loadPyodide's `_makeSnapshot` and `_loadSnapshot`). Pyodide 0.27 snapshots
//   only a memory with no shared library loaded (pyodide#4720), so it is taken before NumPy.
// - the packages as they were installed and imported: every file below site-packages (NumPy's
//   and the bench's, 12 MB) with the bytecode Python wrote as it imported them, as hash-based
//   pycs that Python reads without checking their source (PEP 552's "unchecked"). The key
//   names both wheels, whose contents never change under one name (NumPy's is pinned by its
//   integrity hash, the bench's carries its content hash).
//
// Each is one entry, under a key naming what it was made from: a new runtime or a new wheel
// never finds an old entry, and writing a new entry drops the old ones of its kind. What the
// runtime refuses is forgotten, and Python starts as on a first visit. Nothing shown to the
// reader depends on this: it only takes less time.

const CACHE = "attention-bench-saved-start"; // the service worker keeps it (sw.js)
const MEMORY = "interpreter.memory";
const PACKAGES = "packages.files";

const memoryKey = (indexURL) => new URL(MEMORY, indexURL).href;
const packagesKey = (indexURL, wheelURL) =>
  `${new URL(PACKAGES, indexURL).href}?wheel=${encodeURIComponent(wheelURL)}`;

/** The cache, or null where a page has none (an insecure origin, a private window). */
async function open() {
  try {
    return self.caches ? await self.caches.open(CACHE) : null;
  } catch {
    return null;
  }
}

async function read(key) {
  try {
    const hit = await (await open())?.match(key);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

/** Keep bytes under key, and drop the entries of the same kind (`kind`, a key's path) that
 * were made from another runtime or wheel. Best effort: a full disk only costs the time. */
async function write(key, kind, bytes) {
  try {
    const cache = await open();
    if (!cache) return;
    await cache.put(key, new Response(bytes));
    for (const request of await cache.keys()) {
      if (request.url !== key && new URL(request.url).pathname.endsWith("/" + kind)) await cache.delete(request);
    }
  } catch { /* not kept: the next visit starts as this one did */ }
}

/** Whether bytes have the shape of Pyodide's snapshot: a header of [magic, header size, JSON
 * size, 0, build id] and the heap after it, whole 64 KiB pages. Pyodide checks the magic and
 * the build id itself, and says so; but a heap of no whole page makes its start hang (its
 * WebAssembly instantiation fails with a warning and never returns), so that is asked here. */
function snapshotShaped(bytes) {
  if (bytes.length < 64 * 1024) return false;
  const [, header, json] = new Uint32Array(bytes.buffer, bytes.byteOffset, 4);
  return header % 16 === 0 && json < header && header < bytes.length
    && (bytes.length - header) % (64 * 1024) === 0;
}

/** The saved interpreter memory for this runtime, or null (and forgotten if it is not one). */
export async function savedMemory(indexURL) {
  const bytes = await read(memoryKey(indexURL));
  if (!bytes || snapshotShaped(bytes)) return bytes;
  await forgetMemory(indexURL);
  return null;
}

/** Forget the saved memory (the runtime refused it). */
async function forgetMemory(indexURL) {
  try {
    await (await open())?.delete(memoryKey(indexURL));
  } catch { /* nothing kept */ }
}

/** Keep the memory of an interpreter that has just started (loaded with `_makeSnapshot`),
 * before anything else runs in it: the copy is taken now, the write goes on meanwhile. */
function keepMemory(pyodide, indexURL) {
  let snapshot;
  try {
    snapshot = pyodide.makeMemorySnapshot();
  } catch {
    return;
  }
  write(memoryKey(indexURL), MEMORY, snapshot);
}

// Every file below site-packages: the wheels' files as unpacked, and the pycs Python wrote.
const WRITTEN = `
import sys, pathlib
[str(p) for d in sys.path if d.endswith("site-packages") for p in pathlib.Path(d).rglob("*") if p.is_file()]
`;

/** Let Python write bytecode for the imports that follow (Pyodide starts it with writing off),
 * on a visit that has no packages saved. */
export function writeBytecode(pyodide, on) {
  pyodide.runPython(`import sys; sys.dont_write_bytecode = ${on ? "False" : "True"}`);
}

/** One block of bytes: a 4-byte length, a JSON index [[path, size], ...], then each file. */
function pack(files) {
  const index = new TextEncoder().encode(JSON.stringify(files.map(([path, bytes]) => [path, bytes.length])));
  const out = new Uint8Array(4 + index.length + files.reduce((n, [, b]) => n + b.length, 0));
  new DataView(out.buffer).setUint32(0, index.length);
  out.set(index, 4);
  let at = 4 + index.length;
  for (const [, bytes] of files) {
    out.set(bytes, at);
    at += bytes.length;
  }
  return out;
}

function unpack(block) {
  const length = new DataView(block.buffer, block.byteOffset).getUint32(0);
  let at = 4 + length;
  return JSON.parse(new TextDecoder().decode(block.subarray(4, at))).map(([path, size]) => {
    at += size;
    return [path, block.subarray(at - size, at)];
  });
}

/** Keep the packages as this visit installed and imported them: their files, and the bytecode
 * Python wrote, each pyc made hash-based and unchecked (its flags word, bytes 4 to 8, set to
 * 1): the next visit writes the sources anew, and a timestamp pyc would take them for edits. */
export async function keepPackages(pyodide, indexURL, wheelURL) {
  let files;
  try {
    const written = pyodide.runPython(WRITTEN);
    files = written.toJs().map((path) => [path, pyodide.FS.readFile(path)]);
    written.destroy();
  } catch {
    return;
  }
  for (const [path, bytes] of files) {
    if (path.endsWith(".pyc")) new DataView(bytes.buffer, bytes.byteOffset).setUint32(4, 1, true);
  }
  if (files.length) await write(packagesKey(indexURL, wheelURL), PACKAGES, pack(files));
}

/** The saved packages for this runtime and wheel (a block to restore), or null. */
export const savedPackages = (indexURL, wheelURL) => read(packagesKey(indexURL, wheelURL));

/** Forget the saved packages (they could not be restored). */
async function forgetPackages(indexURL, wheelURL) {
  try {
    await (await open())?.delete(packagesKey(indexURL, wheelURL));
  } catch { /* nothing kept */ }
}

/** Install saved packages as loadPackage would: their files written, each package's shared
 * libraries loaded (as Pyodide's installer does, with the package's ".libs" folder to search),
 * Python's import caches told. Throws if any of it fails. */
async function restorePackages(pyodide, block) {
  const libraries = new Map(); // site-packages/<package> → its .so files
  for (const [path, bytes] of unpack(block)) {
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    pyodide.FS.writeFile(path, bytes);
    const top = path.match(/^(.*\/site-packages\/[^/]+)\//);
    if (top && path.endsWith(".so")) libraries.set(top[1], [...(libraries.get(top[1]) || []), path]);
  }
  for (const [folder, paths] of libraries) {
    // the installer's name for the package: its ".libs" folder is <file_name's first part>.libs
    await pyodide._api.loadDynlibsFromPackage({ file_name: folder.slice(folder.lastIndexOf("/") + 1) }, paths);
  }
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
}

/** Start the interpreter (Pyodide's loadPyodide with options): from a saved memory, when the
 * runtime takes it; else afresh, its memory saved for the next visit before anything else
 * runs in it. Returns [pyodide, whether it came from the saved memory]. */
export async function startInterpreter(loadPyodide, options, memory) {
  if (memory) {
    try {
      return [await loadPyodide({ ...options, _loadSnapshot: memory }), true];
    } catch {
      await forgetMemory(options.indexURL); // made by another runtime, or damaged
    }
  }
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
  keepMemory(pyodide, options.indexURL);
  return [pyodide, false];
}

/** Install the packages: from the files a past visit saved (block), else from their wheels
 * (Pyodide's loadPackage, over whatever a failed restore wrote). True if from the files. */
export async function installPackages(pyodide, packages, indexURL, wheelURL, block) {
  if (block) {
    try {
      await restorePackages(pyodide, block);
      return true;
    } catch {
      await forgetPackages(indexURL, wheelURL);
    }
  }
  await pyodide.loadPackage(packages, { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
  return false;
}
