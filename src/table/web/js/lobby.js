// The online screens around the match: the lobby (open tables, games to watch, yours first), a
// table waiting for its second player (with the invitation link to share), creating a table.
import { t, plural, lang as i18nLangNow } from "./i18n.js";
import * as online from "./online.js";
import { ensureGuest } from "./guest.js";
import { STANDARD } from "./engine/variants.js";
import { OFFERED, cubeFor, lengthsFor, variantName, variantLabel } from "./app/variants.js";

const $ = (id) => document.getElementById(id);
const LENGTHS = [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21];
const DAYS = [1, 2, 3, 5, 7];  // days per move at a turn-based table (clock "days3" ...)
const WATCH_EVERY = 60000;  // ms between asks for the games waiting for you, on every screen
const RETRY_EVERY = 3000;  // ms between tries while the server cannot be reached

export class Lobby {
  // say(text): a passing notice; refusal(code): a refused request in words; go(hash): another screen;
  // waiting(n): how many of your games wait for your move (for the header's badge and the tab title).
  constructor({ say, refusal, go, waiting }) {
    Object.assign(this, { say, refusal, go, onWaiting: waiting || (() => {}) });
    this.feed = null; this.last = null; this.mine = []; this.waitTimer = 0; this.waiting = null;
    $("btn-create").onclick = () => this.createDialog();
    $("btn-back-lobby").onclick = () => go("#/online");
    $("btn-join").onclick = () => this.join(this.waiting);
    $("btn-withdraw").onclick = () => this.withdraw(this.waiting);
    $("btn-share").onclick = () => this.share($("invite-link").value);
    $("invite-link").addEventListener("focus", (e) => e.target.select());
    $("dlg-table").addEventListener("close", () => {
      if ($("dlg-table").returnValue === "create") this.create();
    });
    $("btn-push").onclick = () => this.subscribePush();
    // Choosing the days is choosing a turn-based table.
    $("sel-table-days").addEventListener("change", () => { $("form-table").clock.value = "days"; });
    for (const id of ["lobby-waiting", "lobby-mine", "lobby-open", "lobby-live"]) {
      $(id).addEventListener("click", (e) => {
        const b = e.target.closest("button[data-go], button[data-join], button[data-withdraw]");
        if (!b) return;
        if (b.dataset.go) go(b.dataset.go);
        else if (b.dataset.join) this.join(b.dataset.join);
        else this.withdraw(b.dataset.withdraw);
      });
    }
  }

  fail(err) { this.say(err instanceof online.OnlineError ? this.refusal(err.code) : t("unreachable_title")); }

  // ---- the lobby ----------------------------------------------------------------------
  async open() {
    this.stop();
    // A new device asks for a name only once the server answers: a name cannot be taken without it.
    if (!online.me() && !(await this.reachable())) return true;
    const guest = await ensureGuest();
    if (!guest) { this.go("#/"); return false; }
    this.drawMe();
    if (!this.last) for (const id of ["lobby-open", "lobby-live"]) this.placeholder(id, "lobby_loading");
    this.refreshMine();
    this.offerPush();
    this.feed = online.lobbyFeed((lobby) => { this.last = lobby; this.draw(); this.refreshMineSoon(); },
      (ok) => this.unreachable(!ok));
    return true;
  }

  // Whether the server answers now; if not, the lobby says so and opens itself once it does.
  async reachable() {
    try { await online.listTables(); } catch (err) {
      if (!(err instanceof online.OnlineError) || err.status >= 500) {
        this.unreachable(true);
        this.retryTimer = setTimeout(() => { if (document.body.dataset.screen === "lobby") this.open(); }, RETRY_EVERY);
        return false;
      }
    }
    this.unreachable(false);
    return true;
  }

  // The server cannot be reached (the lobby's feed reconnects by itself): say so, over lists
  // that would otherwise look empty or stale.
  unreachable(down) {
    this.down = down;
    $("offline").hidden = !down;
    if (down) for (const id of ["lobby-open", "lobby-live"]) this.placeholder(id, "lobby_unreachable");
    else if (this.last) this.draw();
  }

  stop() {
    if (this.feed) this.feed.stop();
    this.feed = null;
    clearTimeout(this.waitTimer); clearTimeout(this.mineTimer); clearTimeout(this.retryTimer); this.waiting = null;
    if (this.down) { this.down = false; $("offline").hidden = true; }
  }

  drawMe(points) {
    const g = online.me();
    $("lobby-me").textContent = !g ? "" : typeof points === "number"
      ? t("lobby_me_points", { name: g.name, points: plural("points", points) }) : t("lobby_me", { name: g.name });
    $("lobby-me").href = g ? `#/player/${encodeURIComponent(g.name)}` : "#/";
  }

  // Your tables (open or playing) come from /api/me; asked again when the lobby changes.
  async refreshMine() {
    const waited = new Set((this.mine || []).filter((x) => x.status === "open").map((x) => x.id));
    try {
      const data = await online.whoami();
      this.mine = data ? data.tables : [];
      if (data) this.drawMe(data.player.points);
      this.onWaiting(data ? data.waiting || 0 : 0);
    } catch (_) { /* the lobby itself says when the server is away */ }
    if (!this.feed) return;  // left the lobby meanwhile
    // Someone sat down at the table you were waiting at: to the game.
    const started = this.mine.find((x) => waited.has(x.id) && x.status === "playing" && x.game);
    if (started) { this.go(`#/game/${started.game}`); return; }
    this.draw();
  }
  refreshMineSoon() {
    clearTimeout(this.mineTimer);
    this.mineTimer = setTimeout(() => this.refreshMine(), 300);
  }

  draw() {
    const mine = this.mine || [];
    // Games waiting for your move first (you may hold many turn-based ones), then your other tables.
    const yours = mine.filter((x) => x.your_turn), rest = mine.filter((x) => !x.your_turn);
    $("lobby-waiting-box").hidden = !yours.length;
    $("lobby-waiting-count").textContent = String(yours.length);
    this.fill("lobby-waiting", yours, "");
    $("lobby-mine-box").hidden = !rest.length;
    this.fill("lobby-mine", rest, "");
    if (!this.last || this.down) return;
    const ids = new Set(mine.map((x) => x.id));
    this.fill("lobby-open", this.last.open.filter((x) => !ids.has(x.id)), "lobby_empty_open");
    this.fill("lobby-live", this.last.playing.filter((x) => !ids.has(x.id)), "lobby_empty_live");
  }

  placeholder(id, key) {
    const ul = $(id);
    ul.textContent = "";
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t(key);
    ul.appendChild(li);
  }

  fill(id, tables, empty) {
    if (!tables.length) { if (empty) this.placeholder(id, empty); else $(id).textContent = ""; return; }
    const ul = $(id);
    ul.textContent = "";
    const me = online.me();
    for (const table of tables) {
      const li = document.createElement("li");
      li.className = table.your_turn ? "table-item your-turn" : "table-item";
      li.dataset.table = table.id;
      const who = document.createElement("div");
      who.className = "who";
      who.append(...this.people(table));
      const what = document.createElement("div");
      what.className = "what";
      what.textContent = settingsText(table);
      const mineHere = me && table.players.some((p) => p && p.name === me.name);
      const b = document.createElement("button");
      b.type = "button";
      if (table.status === "playing") {
        b.textContent = t(mineHere ? "continue_game" : "watch");
        b.dataset.go = `#/game/${table.game}`;
        if (mineHere) b.className = "primary";
      } else if (mineHere) {
        b.textContent = t("open_table");
        b.dataset.go = table.invite ? `#/join/${table.invite}` : `#/table/${table.id}`;
      } else {
        b.textContent = t("join");
        b.className = "primary";
        b.dataset.join = table.id;
      }
      li.append(who, what, b);
      ul.appendChild(li);
    }
  }

  // "Ana (120 points) [bot]" for each seated player, as nodes (names are text, never markup).
  people(table) {
    const nodes = [];
    const marker = (cls, key) => {
      const b = document.createElement("span");
      b.className = `badge ${cls}`;
      b.textContent = t(key);
      nodes.push(" ", b);
    };
    for (const p of table.players.filter(Boolean)) {
      if (nodes.length) nodes.push(" – ");
      const a = document.createElement("a");
      a.href = `#/player/${encodeURIComponent(p.name)}`;
      a.textContent = p.name;
      nodes.push(a, ` (${plural("points", p.points)})`);
      if (p.bot) {
        const b = document.createElement("span");
        b.className = "badge bot";
        b.textContent = t("bot_marker");
        nodes.push(" ", b);
      }
    }
    if (table.your_turn) marker("turn", "your_turn_marker");
    if (table.turn_based) marker("days", "turn_based_marker");
    if (table.rated) {
      const b = document.createElement("span");
      b.className = "badge rated";
      b.textContent = t("st_rated_marker");
      nodes.push(" ", b);
    }
    if (table.private) {
      const b = document.createElement("span");
      b.className = "badge";
      b.textContent = t("private_marker");
      nodes.push(" ", b);
    }
    return nodes;
  }

  // ---- games waiting for you, on every screen --------------------------------------------
  // Asks /api/me now and every minute while this device has a guest; the lobby asks on every change too.
  watch() {
    clearInterval(this.watchTimer);
    // A plain read: unlike the lobby's whoami(), a refused token is not forgotten from here.
    const ask = async () => {
      if (!online.me()) { this.onWaiting(0); return; }
      try {
        const data = await online.request("GET", "/api/me");
        // A move made elsewhere does not change the lobby's feed: redraw your tables when the count moves.
        if (this.feed && (data.waiting || 0) !== this.waitingNow) this.refreshMine();
        this.waitingNow = data.waiting || 0;
        this.onWaiting(this.waitingNow);
      } catch (_) { /* offline */ }
    };
    ask();
    this.watchTimer = setInterval(ask, WATCH_EVERY);
  }

  // Web Push, where the browser has it and the server sends notices: offered until this device subscribed.
  async offerPush() {
    $("push-box").hidden = true;
    const reg = await pushRegistration();
    if (!reg || Notification.permission === "denied" || await reg.pushManager.getSubscription()) return;
    try { if (!(await online.pushKey())) return; } catch (_) { return; }
    $("push-box").hidden = false;
  }

  async subscribePush() {
    try {
      const reg = await pushRegistration();
      if (!reg || (await Notification.requestPermission()) !== "granted") { this.say(t("push_denied")); return; }
      const key = await online.pushKey();
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64Url(key) });
      await online.pushSubscribe(Object.assign(sub.toJSON(), { lang: i18nLang() }));
      $("push-box").hidden = true;
      this.say(t("push_on"));
    } catch (err) { this.fail(err); }
  }

  // ---- creating a table ---------------------------------------------------------------
  async createDialog() {
    if (!(await ensureGuest())) return;
    const sel = $("sel-table-length");
    const cur = sel.value || "3";
    sel.textContent = "";
    for (const n of LENGTHS) {
      const o = document.createElement("option");
      o.value = String(n);
      o.textContent = n === 1 ? t("length_single") : plural("points", n);
      sel.appendChild(o);
    }
    sel.value = cur;
    const variants = $("sel-table-variant");
    const chosen = variants.value || STANDARD.name;
    variants.textContent = "";
    for (const v of OFFERED) {
      const o = document.createElement("option");
      o.value = v.name;
      o.textContent = variantName(v.name);
      variants.appendChild(o);
    }
    variants.value = chosen;
    const fit = () => { cubeFor($("form-table").cube, variants.value); lengthsFor(sel, variants.value); };
    fit();
    variants.onchange = fit;
    const days = $("sel-table-days");
    if (!days.options.length) {
      for (const n of DAYS) {
        const o = document.createElement("option");
        o.value = String(n);
        o.textContent = plural("days", n);
        days.appendChild(o);
      }
      days.value = "3";
    }
    $("dlg-table").returnValue = "";
    $("dlg-table").showModal();
  }

  async create() {
    const f = $("form-table");
    const clock = f.clock.value === "days" ? `days${f.days.value}` : f.clock.value;
    const settings = { length: Number(f.length.value), cube: f.cube.checked, clock,
      private: f.visibility.value === "private", rated: f.rated.checked };
    // A table of standard backgammon is asked for as before, without naming the variant.
    if (f.variant.value && f.variant.value !== STANDARD.name) settings.variant = f.variant.value;
    try {
      const table = await online.createTable(settings);
      this.go(table.invite ? `#/join/${table.invite}` : `#/table/${table.id}`);
    } catch (err) { this.fail(err); }
  }

  // ---- one table, before its match --------------------------------------------------
  // `key` is a table id or a private table's invitation code (from the link).
  async openTable(key, byInvite) {
    this.stop();
    this.waiting = key;
    let table;
    try { table = await online.getTable(key); } catch (err) {
      if (err instanceof online.OnlineError && err.code === "not_found") { this.drawGone(); return; }
      this.fail(err); return;
    }
    if (this.waiting !== key) return;
    if (table.status === "playing" && table.game) { this.go(`#/game/${table.game}`); return; }
    if (table.status !== "open") { this.drawGone(); return; }
    const me = online.me();
    const mine = !!me && table.players.some((p) => p && p.name === me.name);
    const host = table.players.find(Boolean);
    $("table-title").textContent = mine || !host ? t("invite_title")
      : t("waits", { name: host.name, points: plural("points", host.points) });
    $("table-text").textContent = mine ? (table.private ? t("invite_text") : t("waiting_opponent")) : "";
    $("table-settings").textContent = settingsText(table);
    $("invite-box").hidden = !(mine && table.private && byInvite);
    if (byInvite) $("invite-link").value = online.inviteLink(key);
    $("btn-join").hidden = mine;
    $("btn-withdraw").hidden = !mine;
    // The creator waits here: the match starts when someone joins.
    if (mine) this.waitTimer = setTimeout(() => { if (this.waiting === key) this.openTable(key, byInvite); }, 2000);
  }

  drawGone() {
    $("table-title").textContent = t("table_gone");
    $("table-text").textContent = "";
    $("table-settings").textContent = "";
    $("invite-box").hidden = true;
    $("btn-join").hidden = true;
    $("btn-withdraw").hidden = true;
  }

  async join(key) {
    if (!key || !(await ensureGuest())) return;
    try {
      const table = await online.joinTable(key);
      this.go(`#/game/${table.game}`);
    } catch (err) {
      if (err instanceof online.OnlineError && err.code === "already_seated") { this.openTable(key, true); return; }
      this.fail(err);
      if (err instanceof online.OnlineError && err.code === "table_full") {
        try { const table = await online.getTable(key); if (table.game) this.go(`#/game/${table.game}`); } catch (_) { /* */ }
      }
    }
  }

  async withdraw(key) {
    if (!key) return;
    try { await online.leaveTable(key); this.go("#/online"); } catch (err) { this.fail(err); }
  }

  // A messaging app on a phone (the share sheet), else the clipboard.
  async share(link) {
    if (navigator.share) {
      try { await navigator.share({ title: "Table", text: t("share_text"), url: link }); return; } catch (err) {
        if (err && err.name === "AbortError") return;  // the player closed the sheet
      }
    }
    try { await navigator.clipboard.writeText(link); this.say(t("copied")); } catch (_) {
      $("invite-link").focus();
      $("invite-link").select();
      this.say(t("copy_failed"));
    }
  }
}

// "3 points · with the cube · Normal" in the reader's language ("Nackgammon · 3 points ..." for a
// variant other than standard backgammon).
export function settingsText(table) {
  return [variantLabel(table), table.length === 1 ? t("length_single") : plural("points", table.length),
    t(table.cube ? "cube_on" : "cube_off"), t("clock_" + table.clock)].filter(Boolean).join(" · ");
}

// The service worker's registration when this browser can take push notices, else null.
async function pushRegistration() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return null;
  try { return await navigator.serviceWorker.ready; } catch (_) { return null; }
}

function fromBase64Url(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

const i18nLang = () => i18nLangNow;
