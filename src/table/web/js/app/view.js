// The game screen drawn from the state on screen and the turn in progress: the board, the players,
// the score, the controls and the status lines.
import { t } from "../i18n.js";
import { targetsFor, sourcesAt, applySteps, isFinal } from "../moves.js";
import { pipCounts } from "../notation.js";
import { $, app, ui } from "./store.js";
import { settings } from "./settings.js";
import { diceOrder, graph, isYou, mySeats, numbersFor, playerName, tn, viewer } from "./seats.js";
import { lastText, statusText } from "./status.js";
import { showResult } from "./dialogs.js";
import { greekBoard, showBadge } from "./variants.js";

export const boxKey = () => `${$("board-wrap").clientWidth}x${$("board-wrap").clientHeight}`;

// The board's shape: upright when its box is taller than wide (a phone held upright).
function boardShape() {
  app.drawnBox = boxKey();
  const w = $("board-wrap");
  const width = w.clientWidth || window.innerWidth, height = w.clientHeight || window.innerHeight;
  return { tall: height > width * 0.95, aspect: height / Math.max(1, width) };
}

export function boardState(msg, override) {
  const v = msg.view;
  const g = graph();
  const base = override || applySteps(v, app.path.map((e) => [e[0], e[1]]), v.turn);
  const shape = boardShape();
  const s = {
    points: base.points, bar: base.bar, off: base.off, waiting: base.waiting,
    // Plakoto and Fevga (greekboard.js): pinned checkers, the same way round, no bar.
    pinned: base.pinned, round: v.variant === "fevga", noBar: greekBoard(v.variant),
    viewer: viewer(msg), turn: v.turn, local: msg.config.mode === "local",
    numbersFor: numbersFor(msg),
    showNumbers: settings.numbers, cube: v.cube, dice: v.dice ? diceOrder() : null,
    crawford: v.crawford, offeredBy: v.phase === "take" ? v.turn : null,
    rolling: app.rolled && settings.animations, tall: shape.tall, aspect: shape.aspect,
  };
  if (override) return s;
  if (g) {
    s.sources = sourcesAt(g, app.node);
    if (app.selected !== null) {
      s.selected = app.selected;
      s.targets = [...targetsFor(g, app.node, app.selected, diceOrder()).keys()];
    }
    const usedDice = app.path.map((e) => e[2]);
    if (v.dice) {
      const order = diceOrder();
      if (order[0] === order[1]) s.usedCount = usedDice.length;
      else {
        const left = usedDice.slice();
        s.used = order.map((d) => { const i = left.indexOf(d); if (i >= 0) { left.splice(i, 1); return true; } return false; });
      }
    }
  }
  // The last move stays drawn (arrows, its dice) until the player starts their own.
  if (v.last && v.last.steps.length && !(g && app.path.length)) {
    s.lastSteps = v.last.steps; s.lastHits = v.last.hits; s.lastSeat = v.last.seat; s.lastDice = v.last.dice;
  }
  return s;
}

// A past position (from the move list or the review), read-only, with a play drawn on it;
// `variant`: the game it is of, where the match plays several (Tavli).
function peekState(msg, p) {
  const s = boardState(msg, p.board);
  if (p.variant) {  // a past game of a Tavli match is drawn as the game it was
    s.round = p.variant === "fevga"; s.noBar = greekBoard(p.variant);
  }
  s.dice = null; s.offeredBy = null; s.rolling = false;
  s.numbersFor = msg.config.mode === "local" ? p.seat : viewer(msg);
  if (p.steps && p.steps.length) { s.lastSteps = p.steps; s.lastHits = p.hits; s.lastSeat = p.seat; s.lastDice = p.dice; }
  return s;
}

export function draw() {
  const msg = app.msg;
  if (!msg) return;
  const v = msg.view;
  const s = app.peek ? peekState(msg, app.peek) : boardState(msg);
  ui.board.render(s);
  // players; the pip counts follow the checkers while a move is being made
  const vw = viewer(msg);
  const pips = pipCounts(s);
  for (const [id, seat] of [["p-bottom", vw], ["p-top", 1 - vw]]) {
    const e = $(id);
    e.querySelector(".swatch").className = `swatch c${seat}`;
    Object.assign(e.querySelector(".name"), { textContent: playerName(msg, seat), title: playerName(msg, seat) });
    e.querySelector(".pips").textContent = t("pips", { n: pips[seat] }) +
      (s.off[seat] ? " · " + t("borne_off", { n: s.off[seat] }) : "");
    // Highlight whoever must decide now (the taker while a double waits, say).
    const acting = v.to_act !== null ? v.to_act : v.turn;
    e.querySelector(".tag").textContent = acting === seat && !v.over
      ? (v.phase === "roll" || v.phase === "move" ? t("on_roll") : tn("to_decide", msg, seat)) : "";
    e.classList.toggle("active", acting === seat);
  }
  $("score").textContent = v.length > 1
    ? t("score_line", { a: v.score[vw], b: v.score[1 - vw], n: v.length })
    : t("single_game");
  showBadge(msg, app.peek);
  $("crawford").hidden = !v.crawford || !!v.over;  // the match over, no game is the Crawford game
  $("device-badge").hidden = !msg.config.device;
  $("spectator").hidden = mySeats(msg).length > 0;
  $("spectator").textContent = t(msg.config.mode === "online" ? "spectator_online" : "spectator");
  // controls
  const g = graph();
  const acts = new Set(v.actions);
  const done = g && isFinal(g, app.node);
  const vis = {
    roll: acts.has("roll"), double: acts.has("double"), take: acts.has("take"), drop: acts.has("drop"),
    accept_resignation: acts.has("accept_resignation"), reject_resignation: acts.has("reject_resignation"),
    next_game: acts.has("next_game"),
    swap: !!g && v.dice && v.dice[0] !== v.dice[1] && !app.path.length,
    undo: !!g, confirm: !!g && !settings.autoConfirm, rematch: v.over && mySeats(msg).length > 0,
    resign: acts.has("resign"), name_double: acts.has("name_double"),
  };
  for (const b of $("controls").querySelectorAll("button")) {
    const a = b.dataset.act;
    b.hidden = !vis[a] || !!app.peek;  // a past position is read-only
    if (a === "undo") b.disabled = !app.path.length;
    if (a === "confirm") b.disabled = !done;
    if (a === "name_double") b.setAttribute("aria-label", t("name_double_button", { n: b.dataset.n }));
  }
  $("last").textContent = lastText(msg);
  $("status").textContent = statusText(msg);
  if (msg.config.mode === "online") ui.match.update(msg, vw, (seat) => playerName(msg, seat), (seat) => isYou(msg, seat));
  else ui.match.hide();
  ui.learn.update(msg);
  if (v.result || v.forfeit) showResult(msg);
}
