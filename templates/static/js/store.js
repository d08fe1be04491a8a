// A small state store: one per widget. Widgets read state, ask the runtime, and redraw on change.

/**
 * Create a store holding a widget's state.
 * @param {object} initial - the starting state
 * @param {(request: object, answer: (json: object) => void) => void} ask - sends a request to Python
 */
export function createStore(initial, ask) {
  let state = initial;
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
    /** Ask Python for an answer; only the newest request of this store is ever answered. */
    ask(request) {
      ask(request, (answer) => this.set({ answer, request }));
    },
  };
}
