// Online play's side of the server (docs/protocol.md): this device's guest identity, the HTTP calls
// for tables and players, and the lobby's live feed.  Screens (lobby.js, guest.js, match.js) call
// these; nothing here touches the page.

const KEY = "table.guest";  // {token, name}: the same browser is the same player next time

export class OnlineError extends Error {
  constructor(code, message, status) { super(message || code); this.code = code; this.status = status; }
}

let memo = null;  // when localStorage refuses (private mode), this visit still has its guest
export function me() {
  try { const v = JSON.parse(localStorage.getItem(KEY) || "null"); if (v && v.token) return v; } catch (_) { /* */ }
  return memo;
}
function remember(guest) {
  memo = guest;
  try { if (guest) localStorage.setItem(KEY, JSON.stringify(guest)); else localStorage.removeItem(KEY); } catch (_) { /* */ }
}
export const token = () => { const g = me(); return g ? g.token : ""; };

// The nickname rules the server applies (players.py), checked before asking it: the refusal code
// ("length", "characters") or "" for a name worth sending.  The server has the last word.
export function nameProblem(raw) {
  const name = String(raw).normalize("NFC").trim().replace(/[şţŞŢ]/g, (c) => ({ ş: "ș", ţ: "ț", Ş: "Ș", Ţ: "Ț" })[c]);
  if (name.length < 2 || name.length > 20) return "length";
  if (!/^[A-Za-z0-9_\-ăâîșțĂÂÎȘȚ]+$/.test(name) || !/[^_-]/.test(name)) return "characters";
  return "";
}

export async function request(method, path, body) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const tok = token();
  if (tok) headers.Authorization = `Bearer ${tok}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch (_) { /* an empty or non-JSON answer */ }
  if (!res.ok) throw new OnlineError((data && data.code) || `http_${res.status}`, data && data.message, res.status);
  return data;
}

// A new guest called `name`, kept on this device.
export async function register(name) {
  const data = await request("POST", "/api/guests", { name });
  const guest = { token: data.token, name: data.player.name };
  remember(guest);
  return guest;
}

// {player, tables} for this device's guest; a token the server no longer knows (a new database)
// is forgotten here, and the answer is null.
export async function whoami() {
  if (!token()) return null;
  try {
    const data = await request("GET", "/api/me");
    remember(Object.assign({}, me(), { name: data.player.name }));
    return data;
  } catch (err) {
    if (err.code === "bad_token") { remember(null); return null; }
    throw err;
  }
}

const path = (key, what) => `/api/tables/${encodeURIComponent(key)}${what ? "/" + what : ""}`;
export const listTables = () => request("GET", "/api/tables");
export const getTable = (key) => request("GET", path(key)).then((d) => d.table);
export const createTable = (settings) => request("POST", "/api/tables", settings).then((d) => d.table);
export const joinTable = (key) => request("POST", path(key, "join"), {}).then((d) => d.table);
export const leaveTable = (key) => request("POST", path(key, "leave"), {}).then((d) => d.table);
export const claim = (key) => request("POST", path(key, "claim"), {}).then((d) => d.table);
export const rematch = (key) => request("POST", path(key, "rematch"), {});
export const playerPage = (name) => request("GET", `/api/players/${encodeURIComponent(name)}`);
// Web Push: the server's public key (null when it sends no notices), and this device's subscription.
export const pushKey = () => request("GET", "/api/push/key").then((d) => d.key);
export const pushSubscribe = (sub) => request("POST", "/api/push/subscribe", sub);

// The link a private table's creator sends.
export const inviteLink = (invite) => `${location.origin}/#/join/${encodeURIComponent(invite)}`;

// The lobby as it changes: `update({open, playing, now})` on every change, over the lobby
// WebSocket, which reconnects by itself; stop() ends it.
export function lobbyFeed(update, online) {
  let stopped = false, ws = null, timer = 0, delay = 500;
  const open = () => {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/lobby`);
    ws.onopen = () => { delay = 500; if (online) online(true); };
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === "lobby") update(msg);
    };
    ws.onclose = () => {
      if (stopped) return;
      if (online) online(false);
      timer = setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    };
  };
  open();
  return { stop() { stopped = true; clearTimeout(timer); if (ws) ws.close(); } };
}
