// Games that live on this device: played by the engine in the browser, with no server at all.
// `LocalLive` has the interface of net.js's `Live` (the server's WebSocket), and sends the board
// the same "state" messages, so the board code does not know where the game lives.  Each action is
// applied, saved in IndexedDB, and only then shown; a game reopened after closing the app resumes.

// The engine loads only when a game on this device is opened or made: the first screen does not
// wait for it (the service worker still keeps it for offline use).
let modules = null;
const engine = () => {
  modules = modules || Promise.all([import("./engine/match.js"), import("./engine/records.js")])
    .then(([match, records]) => ({ ...match, ...records }));
  return modules;
};

export const isLocalId = (id) => typeof id === "string" && id.startsWith("local-");

// ---- storage: one IndexedDB object store, one record per game ----------------------------
const DB_NAME = "table-offline", GAMES = "games", CACHE = "cache";

function openDb() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => {
      req.result.createObjectStore(GAMES, { keyPath: "id" });
      req.result.createObjectStore(CACHE);
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

let dbPromise = null;
async function store(name, mode, fn) {
  dbPromise = dbPromise || openDb();
  const db = await dbPromise;
  return new Promise((resolve, reject) => {
    const tx = db.transaction(name, mode);
    const req = fn(tx.objectStore(name));
    tx.oncomplete = () => resolve(req && req.result);
    tx.onerror = () => reject(tx.error);
  });
}

export const loadGame = (id) => store(GAMES, "readonly", (s) => s.get(id));
const saveGame = (rec) => store(GAMES, "readwrite", (s) => s.put(rec));

// Every game saved on this device, the most recently played first.
export async function localGames() {
  const all = (await store(GAMES, "readonly", (s) => s.getAll())) || [];
  return all.sort((a, b) => b.updated - a.updated);
}

function summary(game) {
  const s = game.state;
  return { over: game.isOver, score: s.score.slice(), phase: s.phase };
}

// A new game on this device; returns its id, as the server's createGame does.
export async function createLocalGame(config) {
  const id = "local-" + Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
  const { LocalGame } = await engine();
  const game = new LocalGame(config);
  const now = Date.now();
  await saveGame({ id, config: game.config, log: [], created: now, updated: now, ...summary(game) });
  return { game: id, token: "" };
}

// The records of a saved game: {mat}, or where .mat cannot hold its game (Plakoto, Fevga, Race...)
// {mat: null, json: Table's JSON record}; null for a game not saved here.
export async function exportRecords(id) {
  const [rec, { LocalGame, toMat, toJsonRecord }] = await Promise.all([loadGame(id), engine()]);
  if (!rec) return null;
  const game = LocalGame.replay(rec.config, rec.log);
  return game.state.variant.matName ? { mat: toMat(game) } : { mat: null, json: toJsonRecord(game) };
}

// ---- the computer, thinking in a worker ----------------------------------------------------
let worker = null, asked = 0;
const waiting = new Map();

function thinker() {
  if (worker) return worker;
  worker = new Worker(new URL("./engine/worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (e) => {
    const w = waiting.get(e.data.id);
    if (!w) return;
    waiting.delete(e.data.id);
    if (e.data.error) w.reject(new Error(e.data.error)); else w.resolve(e.data.action);
  };
  bearoffFor(worker);
  return worker;
}

// The bear-off database: from IndexedDB when this device built it before, else built once in a
// worker of its own (seconds) and kept.  Until it is there the networks judge bear-offs.
// The key names the database's version: v2 has the third layer (each board's representative).
const BEAROFF_KEY = "bearoff-v2";
async function bearoffFor(w) {
  let db = null;
  try { db = await store(CACHE, "readonly", (s) => s.get(BEAROFF_KEY)); } catch (_) { /* no storage */ }
  if (db) { w.postMessage({ type: "db", db }); return; }
  const builder = new Worker(new URL("./engine/worker.js", import.meta.url), { type: "module" });
  builder.onmessage = (e) => {
    builder.terminate();
    w.postMessage({ type: "db", db: e.data.db });
    store(CACHE, "readwrite", (s) => { s.delete("bearoff-v1"); return s.put(e.data.db, BEAROFF_KEY); }).catch(() => {});
  };
  builder.postMessage({ type: "build" });
}

// The computer's action at `level` ("think"), or its advice ("hint"), for match state `state`.
function think(level, state, type = "think") {
  const id = ++asked;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    thinker().postMessage({ type, id, level, state });
  });
}

// ---- one game on this device, behind the interface of net.js's Live ------------------------
export class LocalLive {
  // handlers: {state(msg), error(msg), online(bool), other(msg)}, as for Live, and `pause`: the
  // milliseconds the computer waits before it acts (its dice are seen before its checkers move).
  constructor(game, token, handlers) {
    this.game = game; this.token = token; this.h = handlers;
    this.closed = false; this.g = null; this.chain = Promise.resolve();
    this._open();
  }

  async _open() {
    const [rec, { LocalGame }] = await Promise.all([loadGame(this.game).catch(() => null), engine()]);
    if (this.closed) return;
    if (!rec) { this.h.error({ type: "error", code: "not_found", message: "no such game on this device" }); return; }
    this.rec = rec;
    this.g = LocalGame.replay(rec.config, rec.log);
    this.h.online(true);
    this._publish();
    this._run(() => this._advance());
  }

  get seats() { return this.g.config.mode === "local" ? [0, 1] : [this.g.config.seat]; }

  // One change at a time, in order, as a room's lock does on the server.
  _run(fn) {
    this.chain = this.chain.then(fn).catch((err) => {
      this.h.error({ type: "error", code: err.name === "IllegalAction" ? "illegal" : "local", message: String(err.message || err) });
    });
  }

  _message() {
    const g = this.g;
    return { type: "state", game: this.game, version: g.log.length, seats: this.seats,
      // The Greek opening's dice (the device's only: the status says who won it).
      config: { ...g.config, device: true }, view: { ...g.view(this.seats), ...(g.opening ? { opening: g.opening.slice() } : {}) } };
  }

  _publish() { if (!this.closed) this.h.state(this._message()); }

  async _save() {
    Object.assign(this.rec, { log: this.g.log, updated: Date.now() }, summary(this.g));
    await saveGame(this.rec);
  }

  // Apply, save, then show: what the game does by itself, then the computer's turns.
  async _step(apply) {
    apply();
    await this._save();
    this._publish();
  }

  async _advance() {
    const g = this.g;
    for (;;) {
      if (this.closed) return;
      const auto = g.automatic();
      if (auto) { await this._step(() => g.applyAutomatic(auto)); continue; }
      const seat = g.toAct;
      if (seat === null || !g.isBot(seat) || g.state.phase === "game_over") return;
      const started = Date.now();
      const action = await think(g.config.level, g.state);
      // A moment to see the computer's dice before its checkers move.
      const pause = Number.isFinite(this.h.pause) ? this.h.pause : 350;
      await new Promise((r) => setTimeout(r, Math.max(0, pause - (Date.now() - started))));
      if (this.closed || g.toAct !== seat) return;
      await this._step(() => g.act([seat], action));
    }
  }

  send(version, action) {
    if (!this.g) return false;
    this._run(async () => {
      if (version !== this.g.log.length) {
        this.h.error({ type: "error", code: "stale", message: "the game has moved on" });
        return;
      }
      await this._step(() => this.g.act(this.seats, action));
      await this._advance();
    });
    return true;
  }

  // Greu's advice for the decision on the table, as the server's hint answers it.
  async hint() {
    await this.chain;
    return { ...(await think("hard", this.g.state, "hint")), version: this.g.log.length };
  }

  post() { return false; } // no chat or presence on this device

  retry() {}

  close() { this.closed = true; }
}
