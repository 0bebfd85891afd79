// The chat panel of an online table: the players' channel for the two players, the spectators'
// for everyone else.  Messages are text, never markup; quick phrases are one tap; a player may
// hide the other's messages.  Collapsed under the board on a phone, beside it on a wide screen.
import { lang, t } from "./i18n.js";

export const MAX = 200;
const $ = (id) => document.getElementById(id);

export class Chat {
  // send(text) posts a message; it answers true when it went out.
  constructor(send) {
    this.send = send;
    this.seen = new Set(); this.muted = false; this.channel = null; this.other = null; this.unread = 0;
    this.root = $("chat");
    $("chat-form").addEventListener("submit", (e) => { e.preventDefault(); this.post($("chat-input").value); });
    $("chat-input").addEventListener("input", () => this.count());
    $("chat-toggle").addEventListener("click", () => this.open(!this.isOpen()));
    $("chat-mute").addEventListener("click", () => { this.muted = !this.muted; this.remember(); this.redraw(); });
    $("chat-quick").addEventListener("click", (e) => {
      const b = e.target.closest("button[data-quick]");
      if (b) this.post(t(b.dataset.quick));
    });
    this.messages = [];
  }

  // Show the panel for `channel` ("players" or "spectators") at `table`; `mine` is the reader's
  // name, `other` the opponent's (the one a player may mute), null for a spectator.
  show(table, channel, mine, other) {
    if (this.table !== table || this.channel !== channel) {
      this.table = table; this.channel = channel; this.messages = []; this.seen = new Set(); this.unread = 0;
      this.other = other;
      this.muted = this.recall();
    }
    // Every state of the game comes here: the log is drawn again only when what it shows changed
    // (it was rebuilt, message by message, on every move).
    const drawn = [table, channel, mine, other, lang].join("\n");
    this.other = other; this.mine = mine;
    if (!this.root.hidden && drawn === this.drawn) return;
    this.drawn = drawn;
    this.root.hidden = false;
    this.root.dataset.channel = channel;
    this.redraw();
  }

  hide() { this.root.hidden = true; this.table = null; this.channel = null; this.drawn = null; }

  isOpen() { return this.root.classList.contains("open"); }
  open(on) {
    this.root.classList.toggle("open", on);
    $("chat-toggle").setAttribute("aria-expanded", String(on));
    if (on) { this.unread = 0; this.redraw(); const log = $("chat-log"); log.scrollTop = log.scrollHeight; }
    else this.redraw();
  }

  // New messages from the server, each {id, channel, from, text, at}; a message already shown (the
  // history sent again after a reconnect) is skipped.
  add(list) {
    let fresh = 0;
    for (const m of list) {
      if (m.channel && this.channel && m.channel !== this.channel) continue;
      const key = m.id !== undefined ? String(m.id) : `${m.at}:${m.from}:${m.text}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.messages.push(m);
      if (!this.isMine(m)) fresh += 1;
    }
    if (this.messages.length > 200) this.messages.splice(0, this.messages.length - 200);
    if (fresh && !this.isOpen()) this.unread += fresh;
    this.redraw();
  }

  isMine(m) { return !!this.mine && m.from === this.mine; }
  fromOther(m) { return !!this.other && m.from === this.other; }

  post(text) {
    const clean = String(text).trim();
    if (!clean) return;
    if (clean.length > MAX) return;
    if (this.send(clean)) { $("chat-input").value = ""; this.count(); }
  }

  count() {
    const n = $("chat-input").value.length;
    const e = $("chat-count");
    e.textContent = `${n}/${MAX}`;
    e.classList.toggle("full", n >= MAX);
  }

  muteKey() { return `table.mute.${this.table}`; }
  remember() { try { localStorage.setItem(this.muteKey(), JSON.stringify(this.muted)); } catch (_) { /* */ } }
  recall() { try { return JSON.parse(localStorage.getItem(this.muteKey()) || "false"); } catch (_) { return false; } }

  redraw() {
    if (!this.channel) return;
    $("chat-title").textContent = t(this.channel === "spectators" ? "chat_spectators" : "chat_players");
    const badge = $("chat-unread");
    badge.hidden = !this.unread;
    badge.textContent = String(this.unread);
    badge.setAttribute("aria-label", `${this.unread} ${t("chat_new")}`);
    const mute = $("chat-mute");
    mute.hidden = this.channel !== "players" || !this.other;
    mute.textContent = t(this.muted ? "unmute" : "mute");
    mute.setAttribute("aria-pressed", String(this.muted));
    for (const b of $("chat-quick").querySelectorAll("button[data-quick]")) b.textContent = t(b.dataset.quick);
    $("chat-input").placeholder = t("chat_placeholder");
    $("chat-input").maxLength = MAX;
    this.count();
    const log = $("chat-log");
    const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
    log.textContent = "";
    const shown = this.messages.filter((m) => !(this.muted && this.fromOther(m)));
    for (const m of shown) {
      const li = document.createElement("li");
      if (this.isMine(m)) li.className = "mine";
      const who = document.createElement("b");
      who.textContent = m.from || "";
      const text = document.createElement("span");
      text.textContent = m.text;  // text, never markup
      li.append(who, " ", text);
      log.appendChild(li);
    }
    if (!shown.length) {
      const li = document.createElement("li");
      li.className = "empty";
      li.textContent = t(this.muted ? "muted_note" : "chat_empty");
      log.appendChild(li);
    }
    if (atEnd) log.scrollTop = log.scrollHeight;
  }
}
