// The page scripts' sentences in the page's language (<html lang>), from the server's
// catalog fido_js (/i18n/<lang>.json, src/fido/locale). English is the source text.
//   t("Your turn")                               -> "Du bist am Zug"
//   t("{name} drew", {name})                     -> placeholders in braces
//   nt("{n} tile", "{n} tiles", n)               -> the plural form for n ({n} is n)
// Only literal strings go into t() and nt(): `pybabel extract` reads them (make i18n).

const root = document.documentElement;
export const lang = root.lang || "en";
const source = root.dataset.i18n;

let catalog = null;
if (lang !== "en" && source) {
  try {
    const answer = await fetch(source, { credentials: "same-origin" });
    if (answer.ok) catalog = await answer.json();
  } catch (e) {
    catalog = null; // the English text is shown: better than nothing
  }
}
const rules = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) =>
    Object.prototype.hasOwnProperty.call(params, key) ? String(params[key]) : whole);
}

/** The sentence in the page's language, its {placeholders} filled from params. */
export function t(message, params) {
  const text = catalog && catalog.messages[message];
  return fill(text || message, params);
}

/** The form of a sentence for the number n: {n} is n, formatted the page's way. */
export function nt(singular, plural, n, params) {
  const all = Object.assign({ n: numbers.format(n) }, params || {});
  const forms = catalog && catalog.plurals[singular];
  const one = rules.select(n) === "one";
  if (forms && forms.length) {
    const index = catalog.nplurals <= 1 ? 0 : (one ? 0 : Math.min(1, forms.length - 1));
    if (forms[index]) return fill(forms[index], all);
  }
  return fill(one ? singular : plural, all);
}

/** A number the page's way (1,234 / 1.234). */
export function num(n) {
  return numbers.format(n);
}
