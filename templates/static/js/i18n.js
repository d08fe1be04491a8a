//# allFunctionsCalledOnLoad
// The page's words in its language: the function t fills a message of the catalog
// (attention/strings/<lang>.toml; the build writes the keys the modules use into messages.js
// and fails on a key it lacks). A plural message is chosen by `count` (Intl.PluralRules).

import { LANG, MESSAGES } from "./messages.js";

// a pseudo-locale (en-XA, ar-XB) counts as the language it is made from
const plurals = new Intl.PluralRules(LANG.replace(/-X[AB]$/, ""));

// in a right-to-left language a value (a number, an English word, an address) is set apart
// from the words around it (first-strong isolate … pop), so it keeps its own direction
const isolate = /^ar\b/.test(LANG) ? (text) => `\u2068${text}\u2069` : (text) => text;

/** The message of `key`, its {placeholders} filled from `values`. */
export function t(key, values = {}) {
  let message = MESSAGES[key];
  if (typeof message === "object") message = message[plurals.select(values.count)] ?? message.other;
  return message.replace(/\{(\w+)\}/g, (_, name) => isolate(String(values[name])));
}

/** A number as the page's language writes it (grouping, decimal sign). */
export const number = (value, digits = 0) => new Intl.NumberFormat(LANG.replace(/-X[AB]$/, ""),
  { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
