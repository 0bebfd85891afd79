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

export function t(key, params) {
  let text = messages[key];
  if (text === undefined) return key;
  if (params) text = text.replace(/\{(\w+)\}/g, (_, k) => (params[k] === undefined ? "" : String(params[k])));
  return text;
}

// A count in words: `key_one`, `key_few` or `key_other` by the language's plural rules (Romanian
// says "1 punct", "5 puncte", "20 de puncte").
export function plural(key, n, params) {
  let form = "other";
  try { form = new Intl.PluralRules(lang).select(n); } catch (_) { /* an old browser: "other" */ }
  const k = has(`${key}_${form}`) ? `${key}_${form}` : `${key}_other`;
  return t(k, Object.assign({ n }, params));
}

export const has = (key) => Object.prototype.hasOwnProperty.call(messages, key);

export function apply(root) {
  for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll("[data-i18n-aria]")) e.setAttribute("aria-label", t(e.dataset.i18nAria));
  for (const e of root.querySelectorAll("[data-i18n-title]")) e.setAttribute("title", t(e.dataset.i18nTitle));
  for (const e of root.querySelectorAll("[data-i18n-role]")) e.setAttribute("aria-roledescription", t(e.dataset.i18nRole));
}
