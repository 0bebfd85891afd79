// The app: screens, settings, and one game's turn on the board.
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import { Board, BAR } from "./board.js";
import { createGame, Live } from "./net.js";
import { targetsFor, sourcesAt, applySteps, isFinal } from "./moves.js";
import { showPage } from "./pages.js";

const $ = (id) => document.getElementById(id);
const store = {
  get(k, d) { try { const v = localStorage.getItem("table." + k); return v === null ? d : JSON.parse(v); } catch (_) { return d; } },
  set(k, v) { try { localStorage.setItem("table." + k, JSON.stringify(v)); } catch (_) { /* private mode */ } },
};

const settings = Object.assign({ animations: true, autoConfirm: false, autoForced: false, autoRoll: true, numbers: true },
  store.get("settings", {}));
if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches && store.get("settings", null) === null) {
  settings.animations = false;
}

const app = {
  live: null, msg: null, queue: [], busy: false,
  path: [], node: 0, selected: null, swapped: false, notice: "", sent: false,
};
let board;

// ---- screens -------------------------------------------------------------
function show(id) {
  for (const s of ["home", "play", "page"]) $(s).hidden = s !== id;
}

function route() {
  const h = location.hash;
  const m = h.match(/^#\/game\/([\w-]+)$/);
  if (m) return openGame(m[1]);
  const p = h.match(/^#\/learn\/(\w+)$/);
  if (p) { closeGame(); show("page"); return showPage(p[1]); }
  closeGame();
  show("home");
  $("btn-continue").hidden = !store.get("current", null);
}

function closeGame() {
  if (app.live) app.live.close();
  app.live = null; app.msg = null; app.queue = []; app.sticky = "";
}

function openGame(id) {
  const saved = store.get("games", {})[id];
  if (app.live && app.live.game === id) { show("play"); return; }
  closeGame();
  show("play");
  if (!saved) { setStatus(t("err_no_token")); }
  store.set("current", id);
  app.live = new Live(id, saved ? saved.token : "", {
    state: (msg) => { app.queue.push(msg); pump(); },
    error: (msg) => onError(msg),
    online: (ok) => { $("offline").hidden = ok; },
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
      app.msg = msg;
      app.rolled = fresh && !!msg.view.dice && (!prev || !prev.view.dice || prev.view.turn !== msg.view.turn);
      if (fresh) { app.path = []; app.node = 0; app.selected = null; noticeFor(msg); }
      draw();
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
    const mine = mySeats(msg).includes(last.seat);
    app.notice = mine && msg.config.mode !== "local"
      ? t("no_move_you", { d: last.dice.join("-") })
      : t("no_move_other", { name: playerName(msg, last.seat), d: last.dice.join("-") });
    // The player's own pass stays on screen until they act again.
    if (mine) app.sticky = app.notice;
  }
}

function onError(msg) {
  // A stale action crossed a newer state on the wire; that state is on its way.
  if (msg.code === "stale") { app.path = []; app.node = 0; return; }
  if (msg.code === "not_found") { setStatus(t("err_not_found")); return; }
  draw();
  setStatus(t("err_refused", { msg: msg.message }));
}

// ---- who is who --------------------------------------------------------------
const mySeats = (msg) => msg.seats || [];
function viewer(msg) {
  if (msg.config.mode === "local") return 0;
  return msg.config.seat;
}
function playerName(msg, seat) {
  const c = msg.config;
  if (c.names && c.names[seat]) return c.names[seat];
  if (c.mode === "computer") {
    return seat === c.seat ? t("you") : t("computer_name", { level: t("level_" + c.level) });
  }
  return t(seat === 0 ? "player_white" : "player_black");
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

function boardState(msg, override) {
  const v = msg.view;
  const g = graph();
  const base = override || applySteps(v, app.path.map((e) => [e[0], e[1]]), v.turn);
  const s = {
    points: base.points, bar: base.bar, off: base.off,
    viewer: viewer(msg), turn: v.turn, local: msg.config.mode === "local",
    numbersFor: msg.config.mode === "local" ? (v.turn === null ? 0 : v.turn) : viewer(msg),
    showNumbers: settings.numbers, cube: v.cube, dice: v.dice ? diceOrder() : null,
    rolling: app.rolled && settings.animations,
    tall: window.innerWidth < 700 && window.innerHeight > window.innerWidth * 1.3,
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
      if (order[0] === order[1]) { s.usedCount = usedDice.length; s.used = [usedDice.length >= 4, usedDice.length >= 2]; }
      else {
        const left = usedDice.slice();
        s.used = order.map((d) => { const i = left.indexOf(d); if (i >= 0) { left.splice(i, 1); return true; } return false; });
      }
    }
  }
  if (v.last && !(g && app.path.length)) s.lastPoints = v.last.steps.flat().filter((p) => p >= 1 && p <= 24);
  return s;
}

function draw() {
  const msg = app.msg;
  if (!msg) return;
  const v = msg.view;
  board.render(boardState(msg));
  // players
  const vw = viewer(msg);
  for (const [id, seat] of [["p-bottom", vw], ["p-top", 1 - vw]]) {
    const e = $(id);
    e.querySelector(".swatch").className = `swatch c${seat}`;
    e.querySelector(".name").textContent = playerName(msg, seat);
    e.querySelector(".pips").textContent = t("pips", { n: v.pips[seat] }) +
      (v.off[seat] ? " · " + t("borne_off", { n: v.off[seat] }) : "");
    // Highlight whoever must decide now (the taker while a double waits, say).
    const acting = v.to_act !== null ? v.to_act : v.turn;
    e.querySelector(".tag").textContent = acting === seat && !v.over
      ? t(v.phase === "roll" || v.phase === "move" ? "on_roll" : "to_decide") : "";
    e.classList.toggle("active", acting === seat);
  }
  $("score").textContent = v.length > 1
    ? t("score_line", { a: v.score[vw], b: v.score[1 - vw], n: v.length })
    : t("single_game");
  $("crawford").hidden = !v.crawford;
  // controls
  const g = graph();
  const acts = new Set(v.actions);
  const done = g && isFinal(g, app.node);
  const vis = {
    roll: acts.has("roll"), double: acts.has("double"), take: acts.has("take"), drop: acts.has("drop"),
    accept_resignation: acts.has("accept_resignation"), reject_resignation: acts.has("reject_resignation"),
    next_game: acts.has("next_game"), resign: acts.has("resign"),
    swap: !!g && v.dice && v.dice[0] !== v.dice[1] && !app.path.length,
    undo: !!g, confirm: !!g && !settings.autoConfirm, rematch: v.over && mySeats(msg).length > 0,
    resign: acts.has("resign"),
  };
  for (const b of $("controls").querySelectorAll("button")) {
    const a = b.dataset.act;
    b.hidden = !vis[a];
    if (a === "undo") b.disabled = !app.path.length;
    if (a === "confirm") b.disabled = !done;
  }
  setStatus(statusText(msg));
  if (v.result) showResult(msg);
}

function statusText(msg) {
  const v = msg.view;
  const parts = [];
  if (app.sticky && app.sticky !== app.notice) parts.push(app.sticky);
  if (app.notice) parts.push(app.notice);
  if (v.result) {
    parts.push(resultText(msg));
    if (v.over) parts.push(t("match_over", { name: playerName(msg, v.winner) }));
    else parts.push(t("hint_next_game"));
    return parts.join(" ");
  }
  if (v.last && v.last.steps.length && !(mySeats(msg).includes(v.last.seat) && msg.config.mode !== "local")) {
    parts.push(t("last_move", { name: playerName(msg, v.last.seat), d: v.last.dice.join("-"), play: v.last.play }));
  }
  const g = graph();
  const acts = v.actions || [];
  if (v.phase === "take" && acts.includes("take")) {
    parts.push(t("double_offered", { name: playerName(msg, v.turn), v: v.cube.value * 2 }));
    if (msg.config.mode === "local") parts.push(t("answer_local", { name: playerName(msg, v.to_act) }));
  } else if (v.phase === "resign" && acts.includes("accept_resignation")) {
    parts.push(t("resign_offered", { name: playerName(msg, v.resignation.by), kind: t("resign_kind_" + v.resignation.level) }));
    if (msg.config.mode === "local") parts.push(t("answer_local", { name: playerName(msg, v.to_act) }));
  } else if (v.phase === "roll" && acts.includes("roll")) {
    const hint = t(acts.includes("double") ? "hint_roll" : "hint_roll_only");
    parts.push(msg.config.mode === "local" ? `${playerName(msg, v.turn)}: ${hint}` : hint);
  } else if (g) {
    if (isFinal(g, app.node)) parts.push(settings.autoConfirm ? "" : t("hint_confirm"));
    else parts.push(t(msg.config.mode === "local" ? "hint_move_local" : "hint_move", { name: playerName(msg, v.to_act), d: v.dice.join("-") }));
  } else if (v.to_act !== null && !mySeats(msg).includes(v.to_act)) {
    parts.push(t("waiting", { name: playerName(msg, v.to_act) }));
  }
  return parts.filter(Boolean).join(" ");
}

function setStatus(text) { $("status").textContent = text; }

let shownResult = null;
function resultText(msg) {
  const r = msg.view.result;
  const kind = r.how === "drop" ? "result_drop" : r.how === "resign" ? "result_resign_" + r.level : "result_kind_" + r.level;
  return t("game_won_by", { name: playerName(msg, r.winner) }) + " " + t(kind, { points: r.points });
}

function showResult(msg) {
  const v = msg.view;
  const key = msg.game + ":" + v.game_number + ":" + v.over;
  if (shownResult === key) return;
  shownResult = key;
  const vw = viewer(msg);
  const winner = v.over ? v.winner : v.result.winner;
  const won = msg.config.mode === "computer" ? winner === vw : null;
  $("result-title").textContent = won === null
    ? t(v.over ? "match_over" : "game_over_title", { name: playerName(msg, winner) })
    : t(won ? (v.over ? "you_won_match" : "you_won") : (v.over ? "you_lost_match" : "you_lost"));
  $("result-text").textContent = resultText(msg) +
    (v.length > 1 ? " " + t("score_line", { a: v.score[vw], b: v.score[1 - vw], n: v.length }) : "");
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
  if (!dragging && app.selected === null && !sources.includes(loc)) setStatus(t("not_a_source"));
  else draw();
}

function drop(from, to) {
  const g = graph();
  if (!g) return;
  const targets = targetsFor(g, app.node, from, diceOrder());
  if (to !== null && targets.has(to)) { step(targets.get(to)); return; }
  app.selected = null;
  draw();
  if (to !== from) setStatus(t("illegal_drop"));
}

function step(edges) {
  for (const e of edges) { app.path.push(e); app.node = e[4]; }
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
  if (!app.live.send(app.msg.version, action)) { app.sent = false; setStatus(t("offline")); }
}

function control(act) {
  if (!app.msg) return;
  if (act === "undo") { const e = app.path.pop(); app.node = app.path.length ? app.path[app.path.length - 1][4] : 0; if (e) app.selected = null; draw(); return; }
  if (act === "confirm") { confirmMove(); return; }
  if (act === "swap") { app.swapped = !app.swapped; draw(); return; }
  if (act === "rematch") { startGame(app.msg.config); return; }
  if (act === "resign") { $("dlg-resign").showModal(); return; }
  send({ type: act });
}

// ---- new game ------------------------------------------------------------------
async function startGame(config) {
  try {
    const res = await createGame({ mode: config.mode, length: config.length, cube: config.cube, level: config.level, seat: config.seat });
    const games = store.get("games", {});
    games[res.game] = { token: res.token, created: Date.now() };
    // Keep the tokens of the last 20 games only.
    const ids = Object.keys(games).sort((a, b) => games[b].created - games[a].created).slice(0, 20);
    store.set("games", Object.fromEntries(ids.map((i) => [i, games[i]])));
    store.set("current", res.game);
    store.set("lastConfig", config);
    closeGame();
    location.hash = `#/game/${res.game}`;
  } catch (err) {
    setStatus(t("err_refused", { msg: err.message }));
    $("offline").hidden = !(err instanceof TypeError);
  }
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
    o.textContent = n === 1 ? t("length_single") : t("length_points", { n });
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
  if (app.msg) draw();
  if (!$("page").hidden) route();
}

async function init() {
  await setLang(store.get("lang", "ro"));
  board = new Board($("board"), { pick, drop, t });
  $("btn-new").onclick = newGameDialog;
  $("btn-home-new").onclick = newGameDialog;
  $("btn-continue").onclick = () => { const id = store.get("current", null); if (id) location.hash = `#/game/${id}`; };
  $("btn-pages").onclick = () => { location.hash = "#/learn/rules"; };
  $("btn-lang").onclick = () => setLang(i18n.lang === "ro" ? "en" : "ro");
  $("btn-settings").onclick = () => {
    const f = $("dlg-settings").querySelector("form");
    for (const k of Object.keys(settings)) f[k].checked = settings[k];
    $("dlg-settings").showModal();
  };
  $("dlg-settings").addEventListener("change", (e) => {
    settings[e.target.name] = e.target.checked;
    store.set("settings", settings);
    if (app.msg) draw();
  });
  $("form-new").addEventListener("change", syncNewForm);
  $("dlg-new").addEventListener("close", () => {
    if ($("dlg-new").returnValue !== "start") return;
    const f = $("form-new");
    startGame({ mode: f.mode.value, level: f.level.value, seat: Number(f.seat.value),
      length: Number(f.length.value), cube: f.cube.checked });
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
  let resizeTimer = 0;
  window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(() => { if (app.msg) draw(); }, 100); });
  window.addEventListener("offline", () => { $("offline").hidden = false; });
  route();
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register("/sw.js").catch(() => { /* the app works without it */ });
  }
  // A read-only peek for tests and curious players: the version the page shows.
  window.__table = { version: () => (app.msg ? app.msg.version : -1), phase: () => (app.msg ? app.msg.view.phase : null),
    dice: () => (app.msg ? app.msg.view.dice : null) };
  document.body.dataset.ready = "1";
}

init();
