// The game of the backgammon family a match plays (standard backgammon, Nackgammon): its choice in
// the new-game form and its name on the game screen.  The list and each start come from the
// engine's variants.json, generated from Python's table.rules.variant.
import * as i18n from "../i18n.js";
import { t } from "../i18n.js";
import { ENGINE_ONLY, MATCH_ONLY, SERIES, STANDARD, VARIANTS } from "../engine/variants.js";
import { $ } from "./store.js";

// The Greek games (Plakoto, Fevga, Portes) and the Tavli match that plays them in turn, listed
// after the backgammon family's games.  A series has no start or cube of its own.
const GREEK = Object.fromEntries([...Object.values(ENGINE_ONLY), ...Object.values(MATCH_ONLY)]
  .filter((v) => v.turnFlow === "greek").map((v) => [v.name, v]));
export const greekVariant = (name) => !!GREEK[name] || !!SERIES[name];
// A match of several games in turn (Tavli), which the review does not weigh yet.
export const isSeries = (name) => !!SERIES[name];
// Plakoto and Fevga, drawn by greekboard.js without a bar (Portes is backgammon's board).
export const greekBoard = (name) => !!ENGINE_ONLY[name] && ENGINE_ONLY[name].turnFlow === "greek";
// Every game a form offers, in the order it lists them.
export const OFFERED = [...Object.values(VARIANTS), ...Object.values(GREEK), ...Object.values(SERIES)];
const known = (name) => VARIANTS[name] || GREEK[name] || SERIES[name];

// A variant's name as players know it, in the page's language (the catalogue's, else its title).
export function variantName(name) {
  return i18n.has("variant_" + name) ? t("variant_" + name) : (known(name) || { title: name }).title;
}

// The variant a game's settings name (absent: standard backgammon, as in games made before).
export const variantOf = (config) => (config && config.variant) || STANDARD.name;

// A game's variant in a list of games: its name, or nothing for standard backgammon.
export const variantLabel = (config) => (variantOf(config) === STANDARD.name ? "" : variantName(variantOf(config)));

// The form's choices, one per variant the engine knows, keeping the one chosen.
export function fillVariants() {
  const box = $("variant-choices");
  const chosen = box.querySelector("input:checked");
  const cur = chosen ? chosen.value : STANDARD.name;
  box.textContent = "";
  for (const v of OFFERED) {
    const label = document.createElement("label");
    const input = Object.assign(document.createElement("input"), { type: "radio", name: "variant", value: v.name });
    input.checked = v.name === cur;
    const span = document.createElement("span");
    span.textContent = variantName(v.name);
    label.append(input, " ", span);
    box.append(label);
  }
  showStart();
}

// Choose `name` in the form (a name it does not offer chooses standard backgammon).
export function chooseVariant(name) {
  const box = $("variant-choices");
  const input = box.querySelector(`input[value="${known(name) ? name : STANDARD.name}"]`);
  if (input) input.checked = true;
  showStart();
}

export function chosenVariant() {
  const chosen = $("variant-choices").querySelector("input:checked");
  return chosen ? chosen.value : STANDARD.name;
}

// A form's cube box for the game `name`: taken away (unticked, disabled) where the game has no
// cube (Race, Acey-Deucey), given back ticked when another game is chosen again.
export function cubeFor(box, name) {
  const v = known(name);
  const none = !!v && (v.cube === false || !!SERIES[name]);
  if (none && !box.disabled) { box.dataset.was = box.checked ? "1" : ""; box.checked = false; }
  if (!none && box.disabled) box.checked = box.dataset.was !== "";
  box.disabled = none;
}

// Under the choice, where a variant other than standard backgammon puts its checkers.
export function showStart() {
  const v = known(chosenVariant());
  cubeFor($("form-new").cube, chosenVariant());
  lengthsFor($("sel-length"), chosenVariant());
  const hint = $("variant-start");
  hint.hidden = !v || v.name === STANDARD.name;
  // Race, Dutch, Acey-Deucey: no checker starts on the board; the Tavli match: its games in turn.
  hint.textContent = hint.hidden ? "" : SERIES[v.name] ? t("variant_note_" + v.name) : !v.start.length ? t("variant_start_waiting")
    : t("variant_start", { points: v.start.map(([point, n]) => t("variant_start_item", { n, p: point })).join(", ") })
      + (greekVariant(v.name) ? " " + t("variant_note_" + v.name) : "");
}

// A form's match lengths (`sel`) for the game `name`: a series' only (Tavli: 3, 5 or 7), one of
// them chosen where the length chosen is not; every length for any other game.
export function lengthsFor(sel, name) {
  const allowed = SERIES[name] ? SERIES[name].lengths : null;
  for (const o of sel.options) o.disabled = !!allowed && !allowed.includes(Number(o.value));
  if (allowed && sel.options.length && !allowed.includes(Number(sel.value))) sel.value = String(allowed[0]);
}

// The game screen's badge: the variant's name, shown for every variant but standard backgammon;
// in a Tavli match also the game being played and its number ("Tavli · Plakoto (game 2)"), or
// the past game shown (`peek`: a position from the move list or the review, with its game).
export function showBadge(msg, peek = null) {
  const badge = $("variant-badge"), v = msg.view;
  const [game, n] = peek && peek.variant ? [peek.variant, peek.game] : [v.variant, v.game_number];
  badge.textContent = v.kind && SERIES[v.kind]
    ? t("badge_series", { series: variantName(v.kind), game: variantName(game), n })
    : variantLabel(v.variant ? v : msg.config);
  badge.hidden = !badge.textContent;
}
