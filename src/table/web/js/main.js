// The app: screens, settings, and one game's turn on the board.
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import { Board, BAR } from "./board.js";
import { createGame, Live } from "./net.js";
import { targetsFor, sourcesAt, applySteps, isFinal } from "./moves.js";
import { showPage } from "./pages.js";
import { diceText, playText, pipCounts } from "./notation.js";
import * as sound from "./sound.js";
import * as online from "./online.js";
import { OnlineMatch } from "./match.js";
import { Lobby } from "./lobby.js";
import { showPlayer } from "./player.js";
import { Learn, runReview, renderReview } from "./learn.js";
import { showLeaderboard, showTop } from "./standings.js";
import { Replay } from "./history.js";
import { LocalLive, isLocalId, createLocalGame, localGames, exportMat } from "./local.js";
import { watchBoardBox } from "./boardbox.js";

const $ = (id) => document.getElementById(id);
const store = {
  get(k, d) { try { const v = localStorage.getItem("table." + k); return v === null ? d : JSON.parse(v); } catch (_) { return d; } },
  set(k, v) { try { localStorage.setItem("table." + k, JSON.stringify(v)); } catch (_) { /* private mode */ } },
};

const settings = Object.assign({ animations: true, autoConfirm: false, autoForced: false, autoRoll: true, numbers: true, hints: true,
  sounds: false, theme: "auto" },
  store.get("settings", {}));
if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches && store.get("settings", null) === null) {
  settings.animations = false;
}

const app = {
  live: null, msg: null, queue: [], busy: false,
  path: [], node: 0, selected: null, swapped: false, notice: "", sent: false, answerNote: "",
};
let board, match, lobby, learn, replay;

// ---- screens -------------------------------------------------------------
const SCREENS = ["home", "play", "page", "connect", "lobby", "table", "player", "leaderboard", "replay"];
function show(id) {
  for (const s of SCREENS) $(s).hidden = s !== id;
  document.body.dataset.screen = id;
  setTitle();
}

// How many of your games wait for your move: a badge on the Online button and the tab's title.
let waitingGames = 0;
function showWaiting(n) {
  waitingGames = n;
  const b = $("waiting-badge");
  b.textContent = String(n);
  b.hidden = !n;
  b.title = t("waiting_badge", { n });
  setTitle();
}

// The tab's title follows the screen and the language.
function setTitle() {
  const screen = document.body.dataset.screen;
  const part = screen === "play" || screen === "connect" ? t("title_game")
    : screen === "page" ? t("page_" + (location.hash.split("/")[2] || "rules"))
    : screen === "lobby" || screen === "table" ? t("title_lobby") : screen === "player" ? t("title_player")
    : screen === "leaderboard" ? t("st_leaderboard") : screen === "replay" ? t("st_replay_title") : "";
  // Games waiting for your move come first in the tab's title, as "(2) …".
  document.title = (waitingGames ? `(${waitingGames}) ` : "") + (part ? `${part} · Table` : "Table");
}

function route() {
  const h = location.hash;
  const m = h.match(/^#\/game\/([\w-]+)$/);
  if (m) return openGame(m[1]);
  const p = h.match(/^#\/learn\/(\w+)$/);
  if (p) { closeGame(); show("page"); return showPage(p[1]).then(setTitle); }
  closeGame();
  // Online: the lobby, a table by its id or its invitation code, a player's page.
  if (h === "#/online") { show("lobby"); showTop($("lobby-top")); return lobby.open(); }
  const tb = h.match(/^#\/(table|join)\/([\w-]+)$/);
  if (tb) { show("table"); return lobby.openTable(tb[2], tb[1] === "join"); }
  const pl = h.match(/^#\/player\/(.+)$/);
  if (pl) { show("player"); return showPlayer(decodeURIComponent(pl[1])); }
  const lb = h.match(/^#\/leaderboard(?:\/(\w+)\/(\w+))?$/);
  if (lb) { show("leaderboard"); return showLeaderboard($("leaderboard"), lb[1], lb[2]); }
  const rp = h.match(/^#\/replay\/([\w-]+)$/);
  if (rp) { show("replay"); replay = replay || new Replay($("replay")); return replay.open(rp[1]); }
  show("home");
  $("btn-continue").hidden = !store.get("current", null);
  showMode();
}

// The home screen says whether the server is there, and lists the games kept on this device.
async function showMode() {
  $("mode-line").textContent = t(navigator.onLine ? "mode_online" : "mode_offline");
  const list = $("device-games");
  const games = await localGames().catch(() => []);
  list.textContent = "";
  $("device-games-title").hidden = !games.length;
  for (const g of games.slice(0, 20)) {
    const c = g.config;
    const a = document.createElement("a");
    a.href = `#/game/${g.id}`;
    a.textContent = [c.mode === "computer" ? t("device_game_computer", { level: t("level_" + c.level) }) : t("device_game_local"),
      c.length === 1 ? t("length_single") : i18n.plural("points", c.length), `${g.score[0]}–${g.score[1]}`,
      t(g.over ? "device_game_over" : "device_game_on")].join(" · ");
    const li = document.createElement("li");
    li.append(a);
    list.append(li);
  }
}

function closeGame() {
  if (lobby) lobby.stop();
  if (match) match.hide();
  if (app.live) app.live.close();
  app.live = null; app.msg = null; app.queue = []; app.sticky = ""; app.answerNote = "";
  $("offline").hidden = true;
}

// Until the first state arrives there is no board to show: a screen says that we are
// connecting, or that the server cannot be reached, with a button to try again.
function connectScreen(kind) {
  $("connect-title").textContent = t(kind === "connecting" ? "connecting" : kind === "not_found" ? "err_not_found" : "unreachable_title");
  $("connect-text").textContent = kind === "unreachable" ? t("unreachable_text") : "";
  $("btn-retry").hidden = kind !== "unreachable";
  $("btn-connect-home").hidden = kind === "connecting";
  show("connect");
}

function openGame(id) {
  const saved = store.get("games", {})[id];
  if (app.live && app.live.game === id) { show(app.msg ? "play" : "connect"); return; }
  closeGame();
  connectScreen("connecting");
  store.set("current", id);
  // A game of this device's own holds its game key; an online game knows the guest's device token.
  // Where the game lives: on the server (a WebSocket) or on this device (the engine in the page).
  const Where = isLocalId(id) ? LocalLive : Live;
  app.live = new Where(id, saved ? saved.token : online.token(), {
    other: (msg) => match.other(msg),
    state: (msg) => { app.queue.push(msg); pump(); },
    error: (msg) => onError(msg),
    online: (ok) => {
      if (!app.msg) { if (!ok) connectScreen("unreachable"); return; }
      $("offline").hidden = ok;
    },
  });
}

// ---- states from the server -------------------------------------------------
async function pump() {
  if (app.busy) return;
  app.busy = true;
  try {
    while (app.queue.length) {
      const msg = app.queue.shift();
      const prev = app.msg;
      const fresh = !prev || msg.version !== prev.version;
      if (prev && fresh && msg.version === prev.version + 1 && msg.view.last && settings.animations && !app.sent) {
        await animateLast(prev, msg);
      }
      app.sent = false;
      if (fresh) answerNoteFor(prev, msg);
      app.msg = msg;
      if ($("play").hidden) show("play");
      // Dice roll on screen when they are thrown, not when a reload finds them on the table.
      app.rolled = fresh && !!prev && !!msg.view.dice && (!prev.view.dice || prev.view.turn !== msg.view.turn);
      if (fresh) { app.path = []; app.node = 0; app.selected = null; noticeFor(msg); }
      draw();
      if (app.rolled) sound.play("dice");
      app.rolled = false;
      if (fresh) maybeAuto();
      if (app.queue.length && settings.animations) await sleep(msg.view.last && !msg.view.last.steps.length ? 900 : 150);
    }
  } finally { app.busy = false; }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function animateLast(prev, msg) {
  const last = msg.view.last;
  const pv = prev.view;
  if (!last.steps.length || pv.turn !== last.seat) return;
  let st = { points: pv.points.slice(), bar: pv.bar.slice(), off: pv.off.slice() };
  const sign = last.seat === 0 ? 1 : -1;
  for (const [a, b] of last.steps) {
    const hit = b !== 0 && st.points[b - 1] === -sign;
    const next = applySteps(st, [[a, b]], last.seat);
    const lifted = applySteps(st, [[a, b]], last.seat, true);
    board.render(boardState(prev, lifted));
    await board.animate(a, b, last.seat, 220);
    sound.play(hit ? "hit" : "move");
    if (hit) {
      // The hit checker leaves for the bar.
      const gone = { points: lifted.points.slice(), bar: lifted.bar, off: lifted.off };
      gone.points[b - 1] = 0;
      board.render(boardState(prev, gone));
      await board.animate(b, BAR, 1 - last.seat, 180);
    }
    st = next;
  }
}

function noticeFor(msg) {
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
function answerNoteFor(prev, msg) {
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

function onError(msg) {
  // A stale action crossed a newer state on the wire; that state is on its way.
  if (msg.code === "stale") { app.path = []; app.node = 0; return; }
  if (msg.code === "not_found") {
    if (!app.msg) { if (app.live) app.live.close(); connectScreen("not_found"); } else toast(t("err_not_found"));
    return;
  }
  draw();
  toast(refusal(msg.code));
}

// The server explains refusals in English, for programmers; a player reads them by their code,
// in the page's language.
function refusal(code) {
  return t(i18n.has("err_code_" + code) ? "err_code_" + code : "err_refused");
}

// A passing notice for a refused tap or action: it never replaces what the status lines say.
let toastTimer = 0;
function toast(text) {
  const e = $("toast");
  e.textContent = text;
  e.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { e.hidden = true; }, 3500);
}

// ---- who is who --------------------------------------------------------------
const mySeats = (msg) => msg.seats || [];
function viewer(msg) {
  if (msg.config.mode === "local") return 0;
  // Online, each player sees their own side at the bottom; a spectator sees the first seat's.
  if (msg.config.mode === "online") return mySeats(msg).length ? mySeats(msg)[0] : 0;
  return msg.config.seat;
}
// Whether `seat` is the person reading, who is spoken to as "you".
const isYou = (msg, seat) => msg.config.mode !== "local" && mySeats(msg).includes(seat);
function playerName(msg, seat) {
  const c = msg.config;
  if (c.names && c.names[seat]) return c.names[seat];
  if (c.mode === "computer" && seat !== c.seat) return t("computer_name", { level: t("level_" + c.level) });
  // "You" only to the player themself; a spectator sees the colour.
  if (c.mode === "computer" && mySeats(msg).includes(seat)) return t("you");
  return t(seat === 0 ? "player_white" : "player_black");
}
// A message about `seat`, in the second person when that is the reader.
function tn(key, msg, seat, params) {
  return t(isYou(msg, seat) && i18n.has(key + "_you") ? key + "_you" : key, params);
}
function myMove(msg) {
  const v = msg.view;
  return v.moves && v.to_act !== null && mySeats(msg).includes(v.to_act);
}

// ---- the turn in progress ------------------------------------------------------
function graph() { return app.msg && myMove(app.msg) ? app.msg.view.moves : null; }
function diceOrder() {
  const d = app.msg.view.dice;
  return d && app.swapped ? [d[1], d[0]] : d;
}

const boxKey = () => `${$("board-wrap").clientWidth}x${$("board-wrap").clientHeight}`;

// The board's shape: upright when its box is taller than wide (a phone held upright).
function boardShape() {
  app.drawnBox = boxKey();
  const w = $("board-wrap");
  const width = w.clientWidth || window.innerWidth, height = w.clientHeight || window.innerHeight;
  return { tall: height > width * 0.95, aspect: height / Math.max(1, width) };
}

function boardState(msg, override) {
  const v = msg.view;
  const g = graph();
  const base = override || applySteps(v, app.path.map((e) => [e[0], e[1]]), v.turn);
  const shape = boardShape();
  const s = {
    points: base.points, bar: base.bar, off: base.off,
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

// A past position (from the move list or the review), read-only, with a play drawn on it.
function peekState(msg, p) {
  const s = boardState(msg, p.board);
  s.dice = null; s.offeredBy = null; s.rolling = false;
  s.numbersFor = msg.config.mode === "local" ? p.seat : viewer(msg);
  if (p.steps && p.steps.length) { s.lastSteps = p.steps; s.lastHits = p.hits; s.lastSeat = p.seat; s.lastDice = p.dice; }
  return s;
}

// The numbering on the board: the viewer's; on one shared device, that of the player to move.
function numbersFor(msg) {
  const v = msg.view;
  return msg.config.mode === "local" ? (v.turn === null ? 0 : v.turn) : viewer(msg);
}

function draw() {
  const msg = app.msg;
  if (!msg) return;
  const v = msg.view;
  const s = app.peek ? peekState(msg, app.peek) : boardState(msg);
  board.render(s);
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
    resign: acts.has("resign"),
  };
  for (const b of $("controls").querySelectorAll("button")) {
    const a = b.dataset.act;
    b.hidden = !vis[a] || !!app.peek;  // a past position is read-only
    if (a === "undo") b.disabled = !app.path.length;
    if (a === "confirm") b.disabled = !done;
  }
  $("last").textContent = lastText(msg);
  $("status").textContent = statusText(msg);
  if (msg.config.mode === "online") match.update(msg, vw, (seat) => playerName(msg, seat), (seat) => isYou(msg, seat));
  else match.hide();
  learn.update(msg);
  if (v.result || v.forfeit) showResult(msg);
}

// What happened: the last move (numbered from the reader's side), a pass, a double answered.
function lastText(msg) {
  const v = msg.view, last = v.last;
  const parts = [];
  if (app.sticky && app.sticky !== app.notice) parts.push(app.sticky);
  if (app.notice) parts.push(app.notice);
  if (last && last.steps.length) {
    const play = playText(last.text ? last.text[numbersFor(msg)] : last.play, { bar: t("note_bar"), off: t("note_off") });
    parts.push(tn("last_move", msg, last.seat, { name: playerName(msg, last.seat), d: diceText(last.dice), play }));
  }
  if (app.answerNote) parts.push(app.answerNote);
  return parts.join(" ");
}

// What to do now.
function statusText(msg) {
  const v = msg.view;
  const parts = [];
  if (v.over && !v.result) return tn("match_over", msg, v.winner, { name: playerName(msg, v.winner) });
  if (v.result) {
    parts.push(resultText(msg));
    if (v.over) parts.push(tn("match_over", msg, v.winner, { name: playerName(msg, v.winner) }));
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
  } else if (v.phase === "roll" && acts.includes("roll")) {
    const hint = t(acts.includes("double") ? "hint_roll" : "hint_roll_only");
    parts.push(local ? `${playerName(msg, v.turn)}, ${hint[0].toLowerCase()}${hint.slice(1)}` : hint);
  } else if (g) {
    if (isFinal(g, app.node)) parts.push(settings.autoConfirm ? "" : t("hint_confirm"));
    else parts.push(t(local ? "hint_move_local" : "hint_move", { name: playerName(msg, v.to_act), d: diceText(v.dice) }));
  } else if (v.to_act !== null && !mySeats(msg).includes(v.to_act)) {
    parts.push(t("waiting", { name: playerName(msg, v.to_act) }));
  }
  return parts.filter(Boolean).join(" ");
}

let shownResult = null;
function resultText(msg) {
  const r = msg.view.result;
  const kind = r.how === "drop" ? "result_drop" : r.how === "resign" ? "result_resign_" + r.level : "result_kind_" + r.level;
  // A sentence of its own: the status line and the dialog go on after it.
  return tn("game_won_by", msg, r.winner, { name: playerName(msg, r.winner) }) + " " + t(kind, { points: r.points }) + ".";
}

function showResult(msg) {
  const v = msg.view;
  const key = msg.game + ":" + v.game_number + ":" + v.over;
  if (shownResult === key) return;
  shownResult = key;
  const vw = viewer(msg);
  const winner = v.over ? v.winner : v.result.winner;
  const playing = msg.config.mode === "computer" || (msg.config.mode === "online" && mySeats(msg).length > 0);
  const won = playing ? winner === vw : null;
  $("result-title").textContent = won === null
    ? tn(v.over ? "match_over" : "game_over_title", msg, winner, { name: playerName(msg, winner) })
    : t(won ? (v.over ? "you_won_match" : "you_won") : (v.over ? "you_lost_match" : "you_lost"));
  $("result-text").textContent = [v.result ? resultText(msg) : "",
    v.length > 1 ? t("score_line", { a: v.score[vw], b: v.score[1 - vw], n: v.length }) : "",
    msg.config.mode === "online" ? match.resultNote(msg) : ""].filter(Boolean).join(" ");
  const d = $("dlg-result");
  if (!d.open) d.showModal();
}

function maybeAuto() {
  const acts = app.msg.view.actions || [];
  if (settings.autoRoll && acts.includes("roll") && !acts.includes("double")) {
    setTimeout(() => { if (app.msg && (app.msg.view.actions || []).includes("roll")) send({ type: "roll" }); }, 0);
    return;
  }
  const g = graph();
  if (!g) return;
  const finals = Object.keys(g.finals);
  if (settings.autoForced && finals.length === 1) {
    // Walk the only play step by step.
    let node = 0;
    const path = [];
    while (!isFinal(g, node)) { const e = g.nodes[node][0]; path.push(e); node = e[4]; }
    app.path = path; app.node = node;
    setTimeout(() => confirmMove(), settings.animations ? 300 : 0);
  }
}

// ---- picking and dropping -------------------------------------------------------
function pick(loc, dragging) {
  if (app.peek) return;
  const g = graph();
  if (!g) return;
  const sources = sourcesAt(g, app.node);
  if (app.selected !== null && !dragging) {
    const targets = targetsFor(g, app.node, app.selected, diceOrder());
    if (targets.has(loc)) { step(targets.get(loc)); return; }
    if (loc === app.selected) {
      // A second tap on the same checker plays the first die that can move it.
      const direct = [...targets.values()].filter((p) => p.length === 1);
      if (direct.length) { step(direct[0]); return; }
    }
  }
  app.selected = sources.includes(loc) && (dragging || app.selected !== loc) ? loc : null;
  if (!dragging && app.selected === null && !sources.includes(loc)) toast(t("not_a_source"));
  else draw();
}

function drop(from, to) {
  if (app.peek) { draw(); return; }
  const g = graph();
  if (!g) return;
  const targets = targetsFor(g, app.node, from, diceOrder());
  if (to !== null && targets.has(to)) { step(targets.get(to)); return; }
  app.selected = null;
  draw();
  if (to !== from) toast(t("illegal_drop"));
}

function step(edges) {
  for (const e of edges) { app.path.push(e); app.node = e[4]; }
  sound.play(edges.some((e) => e[3]) ? "hit" : "move");
  app.selected = null;
  const g = graph();
  if (isFinal(g, app.node) && settings.autoConfirm) { confirmMove(); return; }
  if (!isFinal(g, app.node)) {
    const src = sourcesAt(g, app.node);
    if (src.length === 1) app.selected = src[0];
  }
  draw();
}

function confirmMove() {
  const g = graph();
  if (!g || !isFinal(g, app.node)) return;
  send({ type: "move", steps: app.path.map((e) => [e[0], e[1]]) });
}

function send(action) {
  if (!app.live || !app.msg) return;
  app.sticky = "";
  app.sent = action.type === "move";
  if (!app.live.send(app.msg.version, action)) { app.sent = false; toast(t("offline")); }
}

function control(act) {
  if (!app.msg) return;
  if (act === "undo") { const e = app.path.pop(); app.node = app.path.length ? app.path[app.path.length - 1][4] : 0; if (e) app.selected = null; draw(); return; }
  if (act === "confirm") { confirmMove(); return; }
  if (act === "swap") { app.swapped = !app.swapped; draw(); return; }
  if (app.msg.config.mode === "online" && match.control(act)) return;
  if (act === "rematch") { startGame(app.msg.config); return; }
  if (act === "resign") { $("dlg-resign").showModal(); return; }
  send({ type: act });
}

// ---- new game ------------------------------------------------------------------
async function startGame(config) {
  try {
    const settingsOut = { mode: config.mode, length: config.length, cube: config.cube, level: config.level, seat: config.seat };
    if (config.start) settingsOut.start = config.start;
    // Without a connection the game lives on this device (from the opening position only).
    const local = () => {
      if (config.start) throw Object.assign(new Error("offline"), { code: "offline_no_start" });
      return createLocalGame(settingsOut);
    };
    const res = navigator.onLine ? await createGame(settingsOut).catch((err) => {
      if (err instanceof TypeError) return local();
      throw err;
    }) : await local();
    const games = store.get("games", {});
    games[res.game] = { token: res.token, created: Date.now() };
    // Keep the tokens of the last 20 games only.
    const ids = Object.keys(games).sort((a, b) => games[b].created - games[a].created).slice(0, 20);
    store.set("games", Object.fromEntries(ids.map((i) => [i, games[i]])));
    store.set("current", res.game);
    store.set("lastConfig", Object.assign({}, config, { start: undefined }));
    closeGame();
    location.hash = `#/game/${res.game}`;
  } catch (err) {
    toast(err instanceof TypeError ? t("unreachable_title") : refusal(err.code));
  }
}

// A position to start from: "XGID=..." or "POSITION_ID:MATCH_ID" (as GNU Backgammon shows them).
function startFrom(text) {
  const v = text.trim();
  if (!v) return null;
  if (/^xgid=/i.test(v)) return { xgid: v };
  const [position, match] = v.split(/[\s:]+/);
  return { position: position || "", match: match || "" };
}

// Paste a match (.mat, SGF) and have it analysed.
function importDialog() {
  const d = $("dlg-import");
  $("import-result").hidden = true;
  $("import-result").textContent = "";
  d.showModal();
}
function importGo() {
  const text = $("in-import").value;
  const p = $("import-result");
  p.hidden = false; p.textContent = "";
  runReview(p, "/api/review", null, null, { text }, () => $("dlg-import").open, (r) => {
    p.textContent = "";
    renderReview(p, r, { name: (seat) => r.players[seat] || t(seat === 0 ? "player_white" : "player_black"), side: (seat) => seat });
  }, () => {});
}

function newGameDialog() {
  const d = $("dlg-new");
  const f = $("form-new");
  const last = store.get("lastConfig", null);
  if (last) {
    f.mode.value = last.mode; f.level.value = last.level; f.seat.value = String(last.seat);
    f.length.value = String(last.length); f.cube.checked = last.cube;
  }
  syncNewForm();
  d.returnValue = "";
  d.showModal();
}

function syncNewForm() {
  const f = $("form-new");
  const vsComputer = f.mode.value === "computer";
  $("fs-level").disabled = !vsComputer;
  $("fs-colour").hidden = !vsComputer;
}

function fillLengths() {
  const sel = $("sel-length");
  const cur = sel.value || "1";
  sel.textContent = "";
  for (const n of [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21]) {
    const o = document.createElement("option");
    o.value = String(n);
    o.textContent = n === 1 ? t("length_single") : i18n.plural("points", n);
    sel.appendChild(o);
  }
  sel.value = cur;
}

// ---- start ------------------------------------------------------------------------
async function setLang(code) {
  await i18n.load(code);
  store.set("lang", code);
  i18n.apply(document);
  const other = code === "ro" ? "en" : "ro";
  $("btn-lang").textContent = other.toUpperCase();
  $("btn-lang").setAttribute("lang", other);
  $("btn-lang").setAttribute("aria-label", t("switch_language"));
  fillLengths();
  setTitle();
  if (app.msg) draw();
  else if (!$("connect").hidden) connectScreen($("btn-retry").hidden ? "connecting" : "unreachable");
  if (["page", "lobby", "table", "player", "leaderboard", "replay"].includes(document.body.dataset.screen)) route();
}

// Light, dark, or as the system says (prefers-color-scheme).
function applyTheme() {
  if (settings.theme === "light" || settings.theme === "dark") document.documentElement.dataset.theme = settings.theme;
  else delete document.documentElement.dataset.theme;
}

async function init() {
  applyTheme();
  sound.enable(settings.sounds);
  await setLang(store.get("lang", "ro"));
  board = new Board($("board"), { pick, drop, t });
  const go = (hash) => { if (location.hash === hash) route(); else location.hash = hash; };
  match = new OnlineMatch({ post: (m) => !!app.live && app.live.post(m), say: toast, refusal, go });
  lobby = new Lobby({ say: toast, refusal, go, waiting: showWaiting });
  learn = new Learn({
    token: () => (app.live ? app.live.token : null),
    name: (msg, seat) => playerName(msg, seat),
    // Plays are written from the reader's side; on one shared device, from the mover's.
    numbering: (msg, seat) => (msg.config.mode === "local" ? seat : viewer(msg)),
    peek: (state) => { app.peek = state; app.selected = null; draw(); },
    say: toast,
    hints: () => settings.hints,
    // A game on this device answers what the server would: its move list and its records.
    local: (game, kind) => (!isLocalId(game) ? null : kind === "moves"
      ? Promise.resolve({ game, moves: app.live && app.live.g ? app.live.g.moves : [] })
      : kind === "hint" ? app.live.hint()
      : exportMat(game).then((mat) => ({ mat, sgf: null, ...(app.live && app.live.g ? app.live.g.ids : {}) }))),
  });
  $("btn-online").onclick = () => go("#/online");
  $("btn-home-online").onclick = () => go("#/online");
  $("btn-player-lobby").onclick = () => go("#/online");
  $("btn-new").onclick = newGameDialog;
  $("btn-home-new").onclick = newGameDialog;
  $("btn-import").onclick = importDialog;
  $("btn-import-go").onclick = importGo;
  $("btn-continue").onclick = () => { const id = store.get("current", null); if (id) location.hash = `#/game/${id}`; };
  $("btn-pages").onclick = () => { location.hash = "#/learn/rules"; };
  $("btn-lang").onclick = () => setLang(i18n.lang === "ro" ? "en" : "ro");
  $("btn-settings").onclick = () => {
    const f = $("dlg-settings").querySelector("form");
    for (const k of Object.keys(settings)) {
      if (k === "theme") f.theme.value = settings.theme; else f[k].checked = settings[k];
    }
    $("dlg-settings").showModal();
  };
  $("dlg-settings").addEventListener("change", (e) => {
    settings[e.target.name] = e.target.name === "theme" ? e.target.value : e.target.checked;
    store.set("settings", settings);
    applyTheme();
    sound.enable(settings.sounds);
    if (e.target.name === "sounds" && settings.sounds) sound.play("dice");
    if (app.msg) draw();
  });
  $("btn-retry").onclick = () => {
    if (app.msg) { show("play"); return; }  // the game came back on its own meanwhile
    connectScreen("connecting");
    if (app.live) app.live.retry();
  };
  $("btn-connect-home").onclick = () => { location.hash = "#/"; };
  $("form-new").addEventListener("change", syncNewForm);
  $("dlg-new").addEventListener("close", () => {
    if ($("dlg-new").returnValue !== "start") return;
    const f = $("form-new");
    startGame({ mode: f.mode.value, level: f.level.value, seat: Number(f.seat.value),
      length: Number(f.length.value), cube: f.cube.checked, start: startFrom(f.start.value) });
  });
  $("dlg-resign").addEventListener("close", () => {
    const v = $("dlg-resign").returnValue;
    if (["1", "2", "3"].includes(v)) send({ type: "resign", level: Number(v) });
  });
  $("controls").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-act]");
    if (b) control(b.dataset.act);
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea, dialog")) return;
    if (e.key === "u" || (e.key === "z" && (e.ctrlKey || e.metaKey))) control("undo");
    if (e.key === "c" && graph() && isFinal(graph(), app.node)) control("confirm");
    if (e.key === "s" && graph()) control("swap");
  });
  window.addEventListener("hashchange", route);
  // The board takes the shape of its box: redraw when the box changes (rotation, resizing).
  watchBoardBox($("board-wrap"), () => { if (app.msg && boxKey() !== app.drawnBox) draw(); });
  window.addEventListener("offline", () => { if (app.msg && !app.msg.config.device) $("offline").hidden = false; });
  for (const e of ["online", "offline"]) window.addEventListener(e, () => { if (document.body.dataset.screen === "home") showMode(); });
  route();
  lobby.watch();  // games waiting for you: the header's badge on every screen
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    // A new release's worker takes over at once; the page then reloads so that no old file stays in use.
    const hadController = !!navigator.serviceWorker.controller;
    let reloading = false;
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (hadController && !reloading) { reloading = true; location.reload(); }
    });
    navigator.serviceWorker.register("/sw.js").catch(() => { /* the app works without it */ });
  }
  // A read-only peek for tests and curious players: the version the page shows.
  window.__table = { version: () => (app.msg ? app.msg.version : -1), phase: () => (app.msg ? app.msg.view.phase : null),
    dice: () => (app.msg ? app.msg.view.dice : null), last: () => (app.msg ? app.msg.view.last : null) };
  document.body.dataset.ready = "1";
}

init();
