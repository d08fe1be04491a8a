//# allFunctionsCalledOnLoad
// A small state store: one per widget (or group of figures). It holds the newest answer
// from Python and tells its subscribers when it changes.

/**
 * Create a store.
 * @param {(request: object | (() => object), answer: (json: object) => void) => void} ask -
 *   sends a request to Python; a function is called for the request only when it is sent
 */
export function createStore(ask) {
  // { answer }: the newest answer from Python (page.js); { matrixWithout }: the bench's matrix is
  // to be shown without the what-if steps (whatif-matrix.js asks, the matrix's module draws)
  let state = {};
  // the changes asked for whose answer has not arrived yet: the next change builds on them
  let unanswered = {};
  const listeners = new Set();
  return {
    // Every field a store carries, declared here; each is written by the module named.
    extras: {}, // fields added to every request by a widget inside the figure (whatif.js, bench.js)
    roots: [], // the figure roots that share this store, in page order (page.js)
    view: null, // the group's status: pending, stale, which figure speaks (page.js, status.js)
    openLink: () => Promise.resolve(), // opens the state of the page's address (page.js)
    warm: () => {}, // has Python compute requests the reader may make next (page.js; bench.js asks)
    // asks Python a figure's own request, beside the group's state, newest only: answer(json,
    // source) (page.js; the trained layer's figure asks, for the sentence of the layer's state)
    aside: () => {},
    good: null, // the last answer that computed: a bad input leaves it drawn (bench.js, trained.js)
    held: null, // the bench's matrix as the page holds it (bench.js; attention.protocol.delta)
    sentenceSent: null, // the bench's sentence and query when "Use sentence" was pressed (bench-notes.js)
    showQuery: null, // the lab's: show this query and compute it (lab.js; predict.js, whatif.js ask)
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
    /**
     * Ask for a change of the state. `current()` is the state as last answered; `change` holds
     * the fields that change, or is a function of the state that returns them. A change made
     * before the previous one's answer has arrived builds on that change, not on the state
     * still on screen (a click right after "Use sentence" is a click on the new sentence).
     */
    change(current, change) {
      const fields = typeof change === "function" ? change({ ...current(), ...unanswered }) : change;
      const mine = (unanswered = { ...unanswered, ...fields });
      ask(() => ({ ...current(), ...mine }), (answer) => {
        if (unanswered === mine) unanswered = {};
        this.set({ answer });
      });
    },
  };
}
