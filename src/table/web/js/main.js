// The app's entry: routing between screens, the page's language, and the wiring of its buttons.
// The game on screen is app/: its state (store.js), settings, turn, status lines, dialogs,
// animation and drawing (view.js).
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import { Board } from "./board.js";
import { isFinal } from "./moves.js";
import { showPage } from "./pages.js";
import * as sound from "./sound.js";
import { OnlineMatch } from "./match.js";
import { Lobby } from "./lobby.js";
import { showPlayer } from "./player.js";
import { Learn } from "./learn.js";
import { showLeaderboard, showTop } from "./standings.js";
import { Replay } from "./history.js";
import { isLocalId, localGames, exportRecords } from "./local.js";
import { watchBoardBox } from "./boardbox.js";
import { $, app, store, ui } from "./app/store.js";
import { applyTheme, openSettings, settings, watchSettings } from "./app/settings.js";
import { setTitle, show, showWaiting } from "./app/screens.js";
import { graph, playerName, viewer } from "./app/seats.js";
import { refusal, toast } from "./app/status.js";
import { fillLengths, importDialog, importGo, newGameDialog, startFrom, syncNewForm } from "./app/dialogs.js";
import { chosenVariant, fillVariants, variantLabel } from "./app/variants.js";
import { boxKey, draw } from "./app/view.js";
import { drop, pick, send } from "./app/turn.js";
import { closeGame, connectScreen, control, openGame, startGame } from "./app/game.js";

function route() {
  const h = location.hash;
  const m = h.match(/^#\/game\/([\w-]+)$/);
  if (m) return openGame(m[1]);
  const p = h.match(/^#\/learn\/(\w+)$/);
  if (p) { closeGame(); show("page"); return showPage(p[1]).then(setTitle); }
  closeGame();
  // Online: the lobby, a table by its id or its invitation code, a player's page.
  if (h === "#/online") { show("lobby"); showTop($("lobby-top")); return ui.lobby.open(); }
  const tb = h.match(/^#\/(table|join)\/([\w-]+)$/);
  if (tb) { show("table"); return ui.lobby.openTable(tb[2], tb[1] === "join"); }
  const pl = h.match(/^#\/player\/(.+)$/);
  if (pl) { show("player"); return showPlayer(decodeURIComponent(pl[1])); }
  const lb = h.match(/^#\/leaderboard(?:\/(\w+)\/(\w+))?$/);
  if (lb) { show("leaderboard"); return showLeaderboard($("leaderboard"), lb[1], lb[2]); }
  const rp = h.match(/^#\/replay\/([\w-]+)$/);
  if (rp) { show("replay"); ui.replay = ui.replay || new Replay($("replay")); return ui.replay.open(rp[1]); }
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
    a.textContent = [variantLabel(c), c.mode === "computer" ? t("device_game_computer", { level: t("level_" + c.level) }) : t("device_game_local"),
      c.length === 1 ? t("length_single") : i18n.plural("points", c.length), `${g.score[0]}–${g.score[1]}`,
      t(g.over ? "device_game_over" : "device_game_on")].filter(Boolean).join(" · ");
    const li = document.createElement("li");
    li.append(a);
    list.append(li);
  }
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
  fillVariants();
  setTitle();
  if (app.msg) draw();
  else if (!$("connect").hidden) connectScreen($("btn-retry").hidden ? "connecting" : "unreachable");
  if (["page", "lobby", "table", "player", "leaderboard", "replay"].includes(document.body.dataset.screen)) route();
}

async function init() {
  applyTheme();
  sound.enable(settings.sounds);
  await setLang(store.get("lang", "ro"));
  ui.board = new Board($("board"), { pick, drop, t });
  const go = (hash) => { if (location.hash === hash) route(); else location.hash = hash; };
  ui.match = new OnlineMatch({ post: (m) => !!app.live && app.live.post(m), say: toast, refusal, go });
  ui.lobby = new Lobby({ say: toast, refusal, go, waiting: showWaiting });
  ui.learn = new Learn({
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
      : exportRecords(game).then((r) => ({ ...r, sgf: null, ...(r && r.mat === null ? { why_code: "variant" } : {}),
        ...(app.live && app.live.g ? app.live.g.ids : {}) }))),
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
  $("btn-settings").onclick = openSettings;
  watchSettings(() => { if (app.msg) draw(); });
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
      length: Number(f.length.value), cube: f.cube.checked, start: startFrom(f.start.value), variant: chosenVariant() });
  });
  $("dlg-resign").addEventListener("close", () => {
    const v = $("dlg-resign").returnValue;
    if (["1", "2", "3"].includes(v)) send({ type: "resign", level: Number(v) });
  });
  $("controls").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-act]");
    if (b) control(b.dataset.act, b.dataset.n);
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
  ui.lobby.watch();  // games waiting for you: the header's badge on every screen
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
