//# allFunctionsCalledOnLoad
// The page's words in its language: the function t fills a message of the catalog
// (attention/strings/<lang>.toml; the build writes the keys the modules use into one module
// per language, messages-<lang>.js, and fails on a key it lacks). A plural message is chosen
// by `count` (Intl.PluralRules).

import { LANGUAGES } from "./messages.js";

// the page's language (its <html lang>), or, in the worker, the one the page named it with
const asked = globalThis.document ? document.documentElement.lang : globalThis.name;
const { DIR, LANG, MESSAGES } = await (LANGUAGES[asked] ?? Object.values(LANGUAGES)[0])();

/** The page's language, as its catalog is named ("en", "zh", "ar", or a pseudo-locale). */
export const LANGUAGE = LANG;

// a pseudo-locale (en-XA, ar-XB) counts as the language it is made from
const base = LANG.replace(/-X[AB]$/, "");
// numbers in Latin digits in every language, as the tables and the mathematics write them
const numerals = { numberingSystem: "latn" };
const plurals = new Intl.PluralRules(base);

// in a right-to-left page (the catalog's direction) a value (a number, an English word, an
// address) is set apart from the words around it (first-strong isolate … pop), so it keeps
// its own direction
const isolate = DIR === "rtl" ? (text) => `\u2068${text}\u2069` : (text) => text;

/** The message of `key`, its {placeholders} filled from `values`. */
export function t(key, values = {}) {
  let message = MESSAGES[key];
  if (typeof message === "object") message = message[plurals.select(values.count)] ?? message.other;
  return message.replace(/\{(\w+)\}/g, (_, name) => isolate(String(values[name])));
}

// one formatter per number of decimals (a status line says a share every second while loading)
const formats = new Map();

/** A number as the page's language writes it (grouping, decimal sign). */
export function number(value, digits = 0) {
  if (!formats.has(digits)) {
    formats.set(digits, new Intl.NumberFormat(base, { ...numerals, minimumFractionDigits: digits, maximumFractionDigits: digits }));
  }
  return formats.get(digits).format(value);
}
