// The dialogs: a game's result, the new-game form, a match pasted for analysis.
import * as i18n from "../i18n.js";
import { t } from "../i18n.js";
import { runReview, renderReview } from "../learn.js";
import { $, store, ui } from "./store.js";
import { mySeats, playerName, tn, viewer } from "./seats.js";
import { resultText } from "./status.js";
import { chooseVariant, showStart } from "./variants.js";
import { MATCH_LENGTHS } from "../engine/variants.js";

let shownResult = null;
export function showResult(msg) {
  const v = msg.view;
  const key = msg.game + ":" + v.game_number + ":" + v.over;
  if (shownResult === key) return;
  shownResult = key;
  const vw = viewer(msg);
  const winner = v.over ? v.winner : v.result.winner;
  const playing = msg.config.mode === "computer" || (msg.config.mode === "online" && mySeats(msg).length > 0);
  const won = playing ? winner === vw : null;
  const drawn = !v.over && v.result && v.result.how === "draw"; // Plakoto: nobody won this game
  $("result-title").textContent = drawn || (v.over && winner === null) ? t("result_draw_title") : won === null
    ? tn(v.over ? "match_over" : "game_over_title", msg, winner, { name: playerName(msg, winner) })
    : t(won ? (v.over ? "you_won_match" : "you_won") : (v.over ? "you_lost_match" : "you_lost"));
  $("result-text").textContent = [v.result ? resultText(msg) : "",
    v.length > 1 ? t("score_line", { a: v.score[vw], b: v.score[1 - vw], n: v.length }) : "",
    msg.config.mode === "online" ? ui.match.resultNote(msg) : ""].filter(Boolean).join(" ");
  const d = $("dlg-result");
  if (!d.open) d.showModal();
}

// A position to start from: "XGID=..." or "POSITION_ID:MATCH_ID" (as GNU Backgammon shows them).
export function startFrom(text) {
  const v = text.trim();
  if (!v) return null;
  if (/^xgid=/i.test(v)) return { xgid: v };
  const [position, match] = v.split(/[\s:]+/);
  return { position: position || "", match: match || "" };
}

// Paste a match (.mat, SGF) and have it analysed.
export function importDialog() {
  const d = $("dlg-import");
  $("import-result").hidden = true;
  $("import-result").textContent = "";
  d.showModal();
}
export function importGo() {
  const text = $("in-import").value;
  const p = $("import-result");
  p.hidden = false; p.textContent = "";
  runReview(p, "/api/review", null, null, { text }, () => $("dlg-import").open, (r) => {
    p.textContent = "";
    renderReview(p, r, { name: (seat) => r.players[seat] || t(seat === 0 ? "player_white" : "player_black"), side: (seat) => seat });
  }, () => {});
}

export function newGameDialog() {
  const d = $("dlg-new");
  const f = $("form-new");
  const last = store.get("lastConfig", null);
  if (last) {
    f.mode.value = last.mode; f.level.value = last.level; f.seat.value = String(last.seat);
    f.length.value = String(last.length); f.cube.checked = last.cube;
    chooseVariant(last.variant);
  }
  syncNewForm();
  d.returnValue = "";
  d.showModal();
}

export function syncNewForm() {
  const f = $("form-new");
  const vsComputer = f.mode.value === "computer";
  $("fs-level").disabled = !vsComputer;
  $("fs-colour").hidden = !vsComputer;
  showStart();
}

export function fillLengths() {
  const sel = $("sel-length");
  const cur = sel.value || "1";
  sel.textContent = "";
  for (const n of MATCH_LENGTHS) {
    const o = document.createElement("option");
    o.value = String(n);
    o.textContent = n === 1 ? t("length_single") : i18n.plural("points", n);
    sel.appendChild(o);
  }
  sel.value = cur;
}
