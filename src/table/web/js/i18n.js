// Message catalogues: every word a player reads comes from /static/i18n/<lang>.json.

let messages = {};
let pages = null;
export let lang = "ro";

export async function load(code) {
  const res = await fetch(`/static/i18n/${code}.json`);
  messages = await res.json();
  // The ratings/statistics/history screens keep their words in a catalogue of their own.
  Object.assign(messages, await (await fetch(`/static/i18n/stats.${code}.json`)).json());
  pages = null;
  lang = code;
  document.documentElement.lang = code;
}

export async function loadPages() {
  if (!pages) pages = await (await fetch(`/static/i18n/pages.${lang}.json`)).json();
  return pages;
}

// `key`'s text with its {placeholders} filled from `params`, numbers written by `num`.  A count
// names the words it counts: "{n:pips}" is written by `plural("pips", n)`, so the catalogue, not
// each caller, makes "1 pip", "5 pipuri", "167 de pipuri".
export function t(key, params) {
  let text = messages[key];
  if (text === undefined) return key;
  if (params) {
    text = text.replace(/\{(\w+)(?::(\w+))?\}/g, (_, k, words) => {
      const v = params[k];
      if (v === undefined) return "";
      if (typeof v !== "number") return String(v);
      return words ? plural(words, v) : num(v);  // every number as the reader writes it: "−40", "1.500"
    });
  }
  return text;
}

// A count in words: `key_one`, `key_few` or `key_other` by the language's plural rules (Romanian
// says "1 punct", "5 puncte", "20 de puncte").  {n} is written as numbers are (`num`: "1.500 de
// puncte", "−40 de puncte"); round `n` before, so that the form is chosen on what is written.
export function plural(key, n, params) {
  const form = pluralForm(n);
  const k = has(`${key}_${form}`) ? `${key}_${form}` : `${key}_other`;
  return t(k, Object.assign({ n: num(n) }, params));
}

// CLDR's category of `n`; without Intl.PluralRules (old Safari, old Android WebView) Romanian's
// rule by hand (one: 1; other: whole numbers whose last two digits are 00 or 20-99; few: the
// rest) and English's (one: 1; other: the rest).
export function pluralForm(n, code = lang) {
  try { return new Intl.PluralRules(code).select(n); } catch (_) { /* an old browser: below */ }
  return pluralByHand(n, code);
}

export function pluralByHand(n, code = lang) {
  const a = Math.abs(n);
  if (a === 1) return "one";
  if (code !== "ro") return "other";
  const r = a % 100;
  return Number.isInteger(n) && n !== 0 && (r === 0 || r >= 20) ? "other" : "few";
}

export const locale = () => (lang === "ro" ? "ro-RO" : "en-GB");

// One formatter for each language and set of options: making one is what costs (a game page
// wrote numbers with a new one each time, 6% of its script's time in a profile).
const formats = new Map();
function numberFormat(options) {
  const key = locale() + JSON.stringify(options);
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(locale(), options)));
  return format;
}

// A number as the reader writes it: a decimal comma in Romanian, grouped thousands, and a true
// minus sign "−" (Intl writes the hyphen "-").  `options` are Intl.NumberFormat's, e.g.
// { minimumFractionDigits: 3, maximumFractionDigits: 3, signDisplay: "always" }.
export function num(x, options = {}) {
  let parts;
  try { parts = numberFormat(options).formatToParts(x); } catch (_) { return String(x).replace("-", "−"); }
  return parts.map((p) => (p.type === "minusSign" ? "−" : p.value)).join("");
}

// Equities, differences and luck: signed, three decimals ("+0,123", "−0,467", "0,000").
export const signed = (x) => num(x, { minimumFractionDigits: 3, maximumFractionDigits: 3, signDisplay: "exceptZero" });
// A probability as a percentage with one decimal ("36,1%").
export const percent = (p) => num(100 * p, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) + "%";

// A stretch of time inside a sentence, in words rather than as a clock: "3 s", "1 min 28 s"
// (whole seconds, rounded up).
export function duration(seconds) {
  const s = Math.max(0, Math.ceil(seconds - 1e-9)), m = Math.floor(s / 60);
  return m ? t("left_minutes", { m, s: s % 60 }) : t("left_seconds", { s });
}

export const has = (key) => Object.prototype.hasOwnProperty.call(messages, key);

export function apply(root) {
  for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll("[data-i18n-aria]")) e.setAttribute("aria-label", t(e.dataset.i18nAria));
  for (const e of root.querySelectorAll("[data-i18n-title]")) e.setAttribute("title", t(e.dataset.i18nTitle));
  for (const e of root.querySelectorAll("[data-i18n-role]")) e.setAttribute("aria-roledescription", t(e.dataset.i18nRole));
}
