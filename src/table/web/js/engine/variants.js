// The games of the backgammon family the browser plays, as table.rules.variant defines them.
//
// variants.json is GENERATED from the Python table by scripts/export-web-variants (a test fails
// when the committed file differs from what Python writes now): start boards, checkers, scoring,
// the records' names and the weights are never copied here by hand.

import TABLE from "./variants.json" with { type: "json" };

export const VARIANTS = Object.freeze(TABLE.variants);
export const STANDARD = VARIANTS.standard;

// Variants the engine plays that the product does not offer yet (table.rules.variant.ENGINE_ONLY:
// Race, Dutch, Acey-Deucey, whose checkers start off the board, played by reserve.js): variantOf
// finds them, as find_variant does, but they are not in VARIANTS, which the forms list.
export const ENGINE_ONLY = Object.freeze(TABLE.engineOnly);

// Variants only a match plays (table.rules.variant.MATCH_ONLY: Portes, standard play with the Greek
// conventions), and the matches whose games change variant (table.match.series.SERIES: the Tavli
// match, {name, title, games: [variant names in turn], lengths}).
export const MATCH_ONLY = Object.freeze(TABLE.matchOnly);
export const SERIES = Object.freeze(TABLE.series);

// The series called `name` (any case), or null: a match kind, not a variant.
export const seriesOf = (name) => (typeof name === "string" && SERIES[name.trim().toLowerCase()]) || null;

// The variant of game `number` (1 = the first) of a match of `series`, as Series.game gives it.
export const seriesGame = (series, number) => variantOf(series.games[(number - 1) % series.games.length]);

// What a new game shares with the server besides the variant: the computer's levels and the
// lengths a match may have (table.bot.bot.LEVELS, table.server.play.game.MATCH_LENGTHS).
export const LEVEL_NAMES = Object.freeze(TABLE.levels);
export const MATCH_LENGTHS = Object.freeze(TABLE.matchLengths);

// The networks each variant plays with in the browser (variants.json "weights", as
// table.bot.net.shipped gives them), by the name of their files in /static/bot/ (written by
// scripts/export-web-weights): the standard ones ("table") and a variant's own where shipped
// (Hypergammon's, Race's; Plakoto's and Fevga's, which never play the standard ones).  A variant whose own are not shipped (Nackgammon; Dutch and Acey-Deucey
// until theirs are ahead, docs/strength.md) plays the standard ones, the reserve variants on the
// folded board.  tests/e2e/test_reserve_bot_parity.py checks this list against Python's.
const NETWORK_FILES = { standard: "table", hypergammon: "hypergammon", race: "race", plakoto: "plakoto", fevga: "fevga" };
export const networkFile = (variant) => NETWORK_FILES[variant.weights] ?? NETWORK_FILES.standard;

export class VariantError extends Error {
  get name() { return "VariantError"; }
}

// The variant called `name` (Table's name or a record's, any case; a variant object as it is),
// as find_variant finds it; throws VariantError naming the variants there are.
export function variantOf(name) {
  if (name == null) return STANDARD;
  if (typeof name === "object" && name && (VARIANTS[name.name] ?? ENGINE_ONLY[name.name] ?? MATCH_ONLY[name.name]) === name) return name;
  if (typeof name === "string") {
    const key = name.trim().toLowerCase();
    for (const v of [...Object.values(VARIANTS), ...Object.values(ENGINE_ONLY), ...Object.values(MATCH_ONLY)]) {
      if ([v.name, v.matName, v.sgfName].some((n) => n && n.toLowerCase() === key)) return v;
    }
  }
  const shown = typeof name === "string" ? `'${name}'` : JSON.stringify(name);  // as Python's repr shows a name
  throw new VariantError(`unknown variant ${shown}: Table plays ${Object.keys(VARIANTS).join(", ")}`);
}

// Whether the browser plays `variant` (a game on this device, the computer included but for the
// Greek opening's): the standard step rule (rules.js), or checkers starting off the board
// (reserve.js: Race, Dutch, and Acey-Deucey with its staged 1-2 turn).  Portes is the standard
// step rule with the Greek opening (state.js).
export function playable(variant) {
  const r = variant.rules, s = STANDARD.rules;
  if (r.block !== s.block || r.capture !== s.capture || r.turn !== s.turn) return false;
  if (variant.entry === "reserve") return variant.turnFlow === "standard" || variant.turnFlow === "acey-deucey";
  return r.reserveFirst === s.reserveFirst && variant.entry === "bar" && ["standard", "greek"].includes(variant.turnFlow);
}
