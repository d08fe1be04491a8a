// The site's colour schemes: its dark rules are the stylesheet's prefers-color-scheme
// blocks (screen only: print is light), so a page can force one scheme (embeds' theme=) or
// borrow the light one for a moment (downloads) without a second copy of any colour.

// The dark rules found so far. Once forced (forceScheme), a rule's condition reads "screen" or
// "not all" and no longer says that it is dark: it is known from here instead.
const known = new WeakSet();

/** Every rule of the site's own stylesheets that applies only in dark mode. */
export function darkRules() {
  const found = [];
  for (const sheet of document.styleSheets) {
    let rules;
    try { rules = sheet.cssRules; } catch { continue; } // another origin's sheet: not ours
    for (const rule of rules) {
      if (!(rule instanceof CSSMediaRule)) continue;
      if (/prefers-color-scheme:\s*dark/.test(rule.conditionText)) known.add(rule);
      if (known.has(rule)) found.push(rule);
    }
  }
  return found;
}

/** Force "light" or "dark" on this page, whatever the reader's system setting. */
export function forceScheme(scheme) {
  // (dark on screen only: paper is printed in the light palette, its colours being data)
  for (const rule of darkRules()) rule.media.mediaText = scheme === "dark" ? "screen" : "not all";
  document.documentElement.style.colorScheme = scheme; // form controls and scrollbars follow
  document.documentElement.dataset.theme = scheme;
}

/**
 * Run fn with the light palette in force, whatever the reader's colour scheme: the dark
 * rules are switched off for the moment (synchronously, so nothing is painted meanwhile).
 */
export function inLightPalette(fn) {
  const rules = darkRules().map((rule) => [rule, rule.media.mediaText]);
  for (const [rule] of rules) rule.media.mediaText = "not all";
  try {
    return fn();
  } finally {
    for (const [rule, text] of rules) rule.media.mediaText = text;
  }
}
