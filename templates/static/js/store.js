// A small state store: one per widget (or group of figures). It holds the newest answer
// from Python and tells its subscribers when it changes.

/**
 * Create a store.
 * @param {(request: object | (() => object), answer: (json: object) => void) => void} ask -
 *   sends a request to Python; a function is called for the request only when it is sent
 */
export function createStore(ask) {
  let state = {};
  const listeners = new Set();
  return {
    get: () => state,
    set(patch) {
      state = { ...state, ...patch };
      for (const listener of listeners) listener(state);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Ask Python; only the newest request of this store is ever answered. */
    ask(request) {
      ask(request, (answer) => this.set({ answer }));
    },
  };
}
