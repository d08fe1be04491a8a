// Whether to start Python now: loaded by runtime.js when the runtime is first wanted.

// Whether a download of this size should wait for the reader's go-ahead: on a slow,
// metered or data-saving connection, or on a phone whose connection is not known to be wifi.
function costly() {
  const c = navigator.connection;
  if (c && (c.saveData || ["slow-2g", "2g", "3g"].includes(c.effectiveType) || c.type === "cellular")) {
    return true;
  }
  const phone = matchMedia("(pointer: coarse) and (max-width: 40rem)").matches;
  return phone && !(c && ["wifi", "ethernet"].includes(c.type));
}

/** True when this device already holds the runtime (the service worker saved it). */
async function saved(indexURL) {
  try {
    return Boolean(await caches.match(`${indexURL}pyodide.asm.wasm`));
  } catch {
    return false; // no Cache Storage here
  }
}

/** "offline" (and the runtime not saved here), "ask" (a costly download) or "go". */
export async function decide(indexURL, consented) {
  const here = await saved(indexURL);
  if (!here && navigator.onLine === false) return "offline";
  return !here && !consented && costly() ? "ask" : "go";
}
