// ESLint for the site's JavaScript: `npx eslint .` (make lint, which make test runs first).
// The recommended rules catch real faults (an undefined name, an unused variable, a
// condition that is always true); the few set here say why.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    // The service worker is a Jinja template ("{{ build }}"): JavaScript only once built
    ignores: [".venv/", "node_modules/", "site/", "build/", "attention_notebook/static/", "templates/sw.js",
      "templates/static/vendor/"], // others' code, as published (its licence in its header)
  },
  {
    files: ["templates/static/js/**/*.js", "attention_notebook/js/**/*.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["templates/static/js/worker.js", "templates/static/js/worker-main.js"], // a dedicated worker: self, postMessage
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    files: ["**/*.mjs"], // Pyodide under Node (the build's answers, the parity test)
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
  {
    rules: {
      // An argument named _ (or _name) is there for its position: (_, k) => ...; a caught
      // error may go unread where the failure itself is the news; and a key named beside
      // ...rest is the one left out: const { have, ...request } = asked
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
    },
  },
];
