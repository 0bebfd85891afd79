// One game on screen: opening it (on the server or on this device), the states it receives in
// order, its refusals, its buttons, and starting a new one.
import { t } from "../i18n.js";
import { createGame, Live } from "../net.js";
import * as sound from "../sound.js";
import * as online from "../online.js";
import { LocalLive, isLocalId, createLocalGame } from "../local.js";
import { $, app, store, ui } from "./store.js";
import { settings } from "./settings.js";
import { show } from "./screens.js";
import { answerNoteFor, noticeFor, refusal, toast } from "./status.js";
import { draw } from "./view.js";
import { greekVariant } from "./variants.js";
import { animateLast, sleep } from "./animate.js";
import { confirmMove, maybeAuto, send } from "./turn.js";

export function closeGame() {
  if (ui.lobby) ui.lobby.stop();
  if (ui.match) ui.match.hide();
  if (app.live) app.live.close();
  app.live = null; app.msg = null; app.queue = []; app.sticky = ""; app.answerNote = "";
  $("offline").hidden = true;
}

// Until the first state arrives there is no board to show: a screen says that we are
// connecting, or that the server cannot be reached, with a button to try again.
export function connectScreen(kind) {
  $("connect-title").textContent = t(kind === "connecting" ? "connecting" : kind === "not_found" ? "err_not_found" : "unreachable_title");
  $("connect-text").textContent = kind === "unreachable" ? t("unreachable_text") : "";
  $("btn-retry").hidden = kind !== "unreachable";
  $("btn-connect-home").hidden = kind === "connecting";
  show("connect");
}

export function openGame(id) {
  const saved = store.get("games", {})[id];
  if (app.live && app.live.game === id) { show(app.msg ? "play" : "connect"); return; }
  closeGame();
  connectScreen("connecting");
  store.set("current", id);
  // A game of this device's own holds its game key; an online game knows the guest's device token.
  // Where the game lives: on the server (a WebSocket) or on this device (the engine in the page).
  const Where = isLocalId(id) ? LocalLive : Live;
  app.live = new Where(id, saved ? saved.token : online.token(), {
    pause: settings.botPause,
    other: (msg) => ui.match.other(msg),
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

function onError(msg) {
  // A stale action crossed a newer state on the wire. Where that state is already drawn (a tap on
  // the roll button racing the automatic roll), the move on the board is for it: keep it. Else the
  // state is on its way; clear the move, and show it cleared, so no dead confirm button is left.
  if (msg.code === "stale") {
    if (app.msg && typeof msg.version === "number" && msg.version <= app.msg.version) return;
    app.path = []; app.node = 0; app.selected = null; draw(); return;
  }
  if (msg.code === "not_found") {
    if (!app.msg) { if (app.live) app.live.close(); connectScreen("not_found"); } else toast(t("err_not_found"));
    return;
  }
  draw();
  toast(refusal(msg.code));
}

// `n`: the number of the double named after an Acey-Deucey 1-2 (its button's).
export function control(act, n) {
  if (!app.msg) return;
  if (act === "undo") { const e = app.path.pop(); app.node = app.path.length ? app.path[app.path.length - 1][4] : 0; if (e) app.selected = null; draw(); return; }
  if (act === "confirm") { confirmMove(); return; }
  if (act === "swap") { app.swapped = !app.swapped; draw(); return; }
  if (app.msg.config.mode === "online" && ui.match.control(act)) return;
  if (act === "rematch") { startGame(app.msg.config); return; }
  if (act === "resign") {
    // The Greek games (Plakoto, Fevga, Portes) have no backgammon to resign (a single game or a gammon).
    $("dlg-resign").querySelector('button[value="3"]').hidden = greekVariant(app.msg.view.variant);
    $("dlg-resign").showModal();
    return;
  }
  if (act === "name_double") { send({ type: act, number: Number(n) }); return; }
  send({ type: act });
}

// ---- new game ------------------------------------------------------------------
export async function startGame(config) {
  try {
    const settingsOut = { mode: config.mode, length: config.length, cube: config.cube, level: config.level, seat: config.seat };
    if (config.start) settingsOut.start = config.start;
    // Standard backgammon is what a request without a variant plays.
    if (config.variant && config.variant !== "standard") settingsOut.variant = config.variant;
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
