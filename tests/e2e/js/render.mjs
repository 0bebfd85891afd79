// Prints, as JSON, every string of the client's catalogues (ro.json + stats, en.json + stats) that
// takes a placeholder, rendered by i18n.js with each placeholder set to each number given on the
// command line: {"ro": {"key": {"20": "text", ...}}, ...}.  The plural forms themselves
// (key_one/_few/_other) are left out: they are reached through plural(), which the text shows.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as i18n from "../../../src/table/web/js/i18n.js";

const DIR = fileURLToPath(new URL("../../../src/table/web/i18n/", import.meta.url));
const read = (name) => JSON.parse(readFileSync(DIR + name, "utf-8"));
globalThis.document = { documentElement: {} };
globalThis.fetch = async (url) => ({ json: async () => read(url.split("/").pop()) });

const numbers = process.argv.slice(2).map(Number);
const out = {};
for (const lang of ["ro", "en"]) {
  await i18n.load(lang);
  const messages = Object.assign({}, read(`${lang}.json`), read(`stats.${lang}.json`));
  out[lang] = {};
  for (const [key, text] of Object.entries(messages)) {
    if (/_(one|few|other)$/.test(key)) continue;
    const names = [...text.matchAll(/\{(\w+)(?::\w+)?\}/g)].map((m) => m[1]);
    if (!names.length) continue;
    out[lang][key] = Object.fromEntries(numbers.map((n) => [n, i18n.t(key, Object.fromEntries(names.map((k) => [k, n])))]));
  }
}
process.stdout.write(JSON.stringify(out));
