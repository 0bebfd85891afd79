// The status lines: what happened (the last move, a pass, an answer), what to do now, and passing
// notices for refused actions.
import * as i18n from "../i18n.js";
import { t } from "../i18n.js";
import { isFinal } from "../moves.js";
import { diceText, playText } from "../notation.js";
import { $, app } from "./store.js";
import { settings } from "./settings.js";
import { graph, isYou, mySeats, numbersFor, playerName, tn } from "./seats.js";

export function noticeFor(msg) {
  const v = msg.view, last = v.last;
  app.notice = "";
  if (last && !last.steps.length && last.dice && last.dice.length) {
    const mine = isYou(msg, last.seat);
    app.notice = mine
      ? t("no_move_you", { d: diceText(last.dice) })
      : t("no_move_other", { name: playerName(msg, last.seat), d: diceText(last.dice) });
    // The player's own pass stays on screen until they act again.
    if (mine) app.sticky = app.notice;
  }
}

// A double or a resignation answered: said in words, since the board shows little of it.  The
// note lasts until the next move.
export function answerNoteFor(prev, msg) {
  const was = prev && prev.view, v = msg.view;
  if (was && (was.phase === "take" || was.phase === "resign") && v.phase !== was.phase) {
    const who = was.to_act, name = playerName(msg, who);
    if (was.phase === "take") {
      const dropped = v.result && v.result.how === "drop";
      app.answerNote = tn(dropped ? "cube_dropped" : "cube_taken", msg, who, { name, v: was.cube.value * 2 });
    } else {
      const accepted = v.result && v.result.how === "resign";
      app.answerNote = tn(accepted ? "resign_accepted" : "resign_rejected", msg, who, { name });
    }
  } else if (!was || JSON.stringify(v.last) !== JSON.stringify(was.last)) {
    app.answerNote = "";
  }
}

// The server explains refusals in English, for programmers; a player reads them by their code,
// in the page's language.
export function refusal(code) {
  return t(i18n.has("err_code_" + code) ? "err_code_" + code : "err_refused");
}

// A passing notice for a refused tap or action: it never replaces what the status lines say.
let toastTimer = 0;
export function toast(text) {
  const e = $("toast");
  e.textContent = text;
  e.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { e.hidden = true; }, 3500);
}

// What happened: the last move (numbered from the reader's side), a pass, a double answered.
export function lastText(msg) {
  const v = msg.view, last = v.last;
  const parts = [];
  if (app.sticky && app.sticky !== app.notice) parts.push(app.sticky);
  if (app.notice) parts.push(app.notice);
  if (last && last.steps.length) {
    // Fevga on one device: in the mover's numbering (each side's runs half round from the other's).
    const side = msg.config.mode === "local" && v.variant === "fevga" ? last.seat : numbersFor(msg);
    const play = playText(last.text ? last.text[side] : last.play, { bar: t("note_bar"), off: t("note_off") });
    parts.push(tn("last_move", msg, last.seat, { name: playerName(msg, last.seat), d: diceText(last.dice), play }));
  }
  if (app.answerNote) parts.push(app.answerNote);
  return parts.join(" ");
}

// What to do now.
export function statusText(msg) {
  const v = msg.view;
  const parts = [];
  if (v.over && !v.result) return tn("match_over", msg, v.winner, { name: playerName(msg, v.winner) });
  if (v.result) {
    parts.push(resultText(msg));
    // A drawn single game (Plakoto) is over without a winner to name.
    if (v.over) { if (v.winner !== null) parts.push(tn("match_over", msg, v.winner, { name: playerName(msg, v.winner) })); }
    else parts.push(t("hint_next_game"));
    return parts.join(" ");
  }
  const g = graph();
  const acts = v.actions || [];
  const local = msg.config.mode === "local";
  if (v.phase === "take" && acts.includes("take")) {
    parts.push(t("double_offered", { name: playerName(msg, v.turn), v: v.cube.value * 2 }));
    if (local) parts.push(t("answer_local", { name: playerName(msg, v.to_act) }));
  } else if (v.phase === "resign" && acts.includes("accept_resignation")) {
    parts.push(t("resign_offered", { name: playerName(msg, v.resignation.by), kind: t("resign_kind_" + v.resignation.level) }));
    if (local) parts.push(t("answer_local", { name: playerName(msg, v.to_act) }));
  } else if (acts.includes("name_double")) {
    parts.push(t("hint_name_double"));
  } else if (v.phase === "roll" && acts.includes("roll")) {
    // The Greek opening: the higher die won it, and its owner rolls both dice afresh.
    if (v.opening) {
      const won = v.opening[0] > v.opening[1] ? 0 : 1;
      parts.push(tn("opening_won", msg, won, { name: playerName(msg, won), a: v.opening[won], b: v.opening[1 - won] }));
    }
    // Acey-Deucey: a double named after a 1-2 and played in full earns another roll.
    const hint = t(v.stage === "extra_roll" ? "hint_roll_extra" : acts.includes("double") ? "hint_roll" : "hint_roll_only");
    parts.push(local ? `${playerName(msg, v.turn)}, ${hint[0].toLowerCase()}${hint.slice(1)}` : hint);
  } else if (g) {
    if (isFinal(g, app.node)) parts.push(settings.autoConfirm ? "" : t("hint_confirm"));
    else if (v.stage === "named_double" && !local) parts.push(t("hint_move_named", { d: diceText(v.dice) }));
    else parts.push(t(local ? "hint_move_local" : "hint_move", { name: playerName(msg, v.to_act), d: diceText(v.dice) }));
  } else if (v.to_act !== null && !mySeats(msg).includes(v.to_act)) {
    parts.push(t("waiting", { name: playerName(msg, v.to_act) }));
  }
  return parts.filter(Boolean).join(" ");
}

export function resultText(msg) {
  const r = msg.view.result;
  // Plakoto: both mothers pinned is a draw (nobody scores); a pinned mother loses 2 points.
  if (r.how === "draw") return t("result_draw") + ".";
  if (r.how === "mother") {
    return tn("game_won_by", msg, r.winner, { name: playerName(msg, r.winner) }) + " " + t("result_mother", { points: r.points }) + ".";
  }
  // Acey-Deucey's loser pays per checker not borne off, whatever the level.
  const kind = r.how === "drop" ? "result_drop" : msg.view.variant === "acey-deucey" ? "result_checkers"
    : r.how === "resign" ? "result_resign_" + r.level : "result_kind_" + r.level;
  // A sentence of its own: the status line and the dialog go on after it.
  return tn("game_won_by", msg, r.winner, { name: playerName(msg, r.winner) }) + " " + t(kind, { points: r.points }) + ".";
}
