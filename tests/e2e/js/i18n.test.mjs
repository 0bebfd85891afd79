// The client's words for numbers: counts through the plural helper ("20 de puncte", also without
// Intl.PluralRules), numbers as the reader writes them (decimal comma, grouping, a true minus).
// tests/test_counts.py renders every catalogue string through render.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as i18n from "../../../src/table/web/js/i18n.js";

const DIR = fileURLToPath(new URL("../../../src/table/web/i18n/", import.meta.url));
const read = (name) => JSON.parse(readFileSync(DIR + name, "utf-8"));
globalThis.document = { documentElement: {} };

async function load(lang) {
  globalThis.fetch = async (url) => ({ json: async () => read(url.split("/").pop()) });
  await i18n.load(lang);
}

test("the plural forms are the language's own, with and without Intl.PluralRules", async () => {
  await load("ro");
  const expect = { 0: "0 puncte", 1: "1 punct", 2: "2 puncte", 19: "19 puncte", 20: "20 de puncte", 21: "21 de puncte",
    100: "100 de puncte", 101: "101 puncte", 119: "119 puncte", 120: "120 de puncte", 1500: "1.500 de puncte",
    1.5: "1,5 puncte", [-1]: "−1 punct", [-20]: "−20 de puncte" };
  for (const [n, text] of Object.entries(expect)) assert.equal(i18n.plural("points", Number(n)), text);
  for (const n of [0, 1, 2, 19, 20, 21, 100, 101, 102, 119, 120, 1000, 1001, 1.5, -1, -20]) {
    assert.equal(i18n.pluralByHand(n, "ro"), new Intl.PluralRules("ro").select(n), String(n));
    assert.equal(i18n.pluralByHand(n, "en"), new Intl.PluralRules("en").select(n), String(n));
  }
  const real = Intl.PluralRules;
  try {
    Intl.PluralRules = undefined;  // an old browser
    assert.equal(i18n.plural("points", 1), "1 punct");
    assert.equal(i18n.plural("points", 5), "5 puncte");
    assert.equal(i18n.plural("points", 21), "21 de puncte");
  } finally { Intl.PluralRules = real; }
  assert.equal(i18n.t("pips", { n: 167 }), "167 de pipuri");
  assert.equal(i18n.t("pips", { n: 1 }), "1 pip");
  assert.equal(i18n.t("score_line", { a: 0, b: 3, n: 21 }), "Scor 0–3 · până la 21 de puncte");
  assert.equal(i18n.t("left_days", { d: 1, h: 0 }), "1 zi 0 h");
});

test("numbers have the reader's decimal comma, grouping and a true minus", async () => {
  await load("ro");
  assert.equal(i18n.signed(-0.467), "−0,467");
  assert.equal(i18n.signed(0.1234), "+0,123");
  assert.equal(i18n.percent(0.361), "36,1%");
  assert.equal(i18n.num(1482.7, { maximumFractionDigits: 1 }), "1.482,7");
  assert.equal(i18n.num(-40), "−40");
  assert.equal(i18n.duration(3), "3 s");
  assert.equal(i18n.duration(88), "1 min 28 s");
  await load("en");
  assert.equal(i18n.signed(-0.467), "−0.467");
  assert.equal(i18n.percent(0.361), "36.1%");
  assert.equal(i18n.num(-1500), "−1,500");
});
