// What an online match adds to the game screen: both clocks ticking, the opponent's presence with
// the claim it allows, leaving (it costs 100 points), the points the match moved, a rematch, and
// the table's chat.  The board and the turn in progress (app/view.js, app/turn.js) do not know
// about any of it.
import { t, plural, duration } from "./i18n.js";
import { remaining, fmt, fmtDays, warning, skew } from "./clock.js";
import * as online from "./online.js";
import { Chat } from "./chat.js";

export const CLAIM_AFTER = 90;  // seconds away before the opponent may claim (docs/protocol.md)
const $ = (id) => document.getElementById(id);

export class OnlineMatch {
  // post(msg) sends on the game's socket; say(text) shows a passing notice; refusal(code) words a
  // refused request; go(hash) opens another screen.
  constructor({ post, say, refusal, go }) {
    Object.assign(this, { post, say, refusal, go });
    this.msg = null; this.offset = 0; this.presence = null; this.presenceAt = 0; this.rematchAsked = [];
    this.timer = 0;
    this.chat = new Chat((text) => this.post({ type: "chat", channel: this.chat.channel, text }));
    $("dlg-leave").addEventListener("close", () => {
      if ($("dlg-leave").returnValue === "leave") this.request(online.leaveTable);
    });
  }

  // After every drawing of an online game's state: `vw` is the seat drawn at the bottom, `name(seat)`
  // the player's name, `you(seat)` whether that seat is the reader.
  update(msg, vw, name, you) {
    const v = msg.view;
    if (!this.msg || this.msg.game !== msg.game) { this.rematchAsked = []; this.presence = null; this.presenceAt = 0; }
    this.msg = msg; this.vw = vw; this.name = name; this.you = you;
    if (v.clock) this.offset = skew(v.clock.now, msg.arrived || Date.now());
    // States are drawn after the animations before them, presence messages at once: a state drawn
    // late may be older than the last presence message, and must not bring a gone player back.
    const at = v.clock ? v.clock.now : 0;
    if (v.presence && at >= this.presenceAt) { this.presence = v.presence; this.presenceAt = at; }
    const seated = (msg.seats || []).length > 0;
    const table = msg.config.table || (v.table && v.table.id);
    const me = online.me();
    this.chat.show(table, seated ? "players" : "spectators", me ? me.name : null, seated ? name(1 - vw) : null);
    $("chat-form").hidden = $("chat-quick").hidden = !me;  // an anonymous spectator only reads
    for (const id of ["play", "p-top", "p-bottom"]) $(id).classList.add("online");
    $("controls").querySelector("[data-act=leave]").hidden = !seated || !!v.over;
    this.tick();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.tick(), 250);
  }

  hide() {
    clearInterval(this.timer);
    this.msg = null;
    this.chat.hide();
    for (const id of ["p-top", "p-bottom"]) $(id).querySelector(".clock").hidden = true;
    for (const id of ["play", "p-top", "p-bottom"]) $(id).classList.remove("online");
    $("presence").hidden = true; $("ledger").hidden = true;
    $("controls").querySelector("[data-act=claim]").hidden = true;
    $("controls").querySelector("[data-act=leave]").hidden = true;
  }

  now() { return Date.now() / 1000 + this.offset; }

  // The clocks, the presence line and the claim button: they change with time, not only with states.
  tick() {
    const msg = this.msg;
    if (!msg) return;
    const v = msg.view, c = v.clock, now = this.now();
    // Turn-based clocks count days and hours.
    const show = c && c.preset.startsWith("days") ? (s) => fmtDays(s, t) : fmt;
    for (const [id, seat] of [["p-bottom", this.vw], ["p-top", 1 - this.vw]]) {
      const e = $(id).querySelector(".clock");
      e.hidden = !c || c.preset === "untimed";
      if (e.hidden) continue;
      const [d, r] = remaining(c, seat, now);
      const running = c.running === seat && c.deadline !== null && c.deadline !== undefined && !v.over;
      if (!e.firstChild) {
        const delay = document.createElement("span"), reserve = document.createElement("span");
        delay.className = "delay"; reserve.className = "reserve";
        e.append(delay, reserve);
      }
      e.children[0].textContent = show(d);
      e.children[1].textContent = show(r);
      e.classList.toggle("running", running);
      e.classList.toggle("warn", running && warning(c, seat, now));
      e.setAttribute("aria-label", t(this.you(seat) ? "clock_label_you" : "clock_label",
        { name: this.name(seat), delay: show(d), reserve: show(r) }));
    }
    this.drawPresence(now);
  }

  drawPresence(now) {
    const msg = this.msg, v = msg.view;
    const seated = (msg.seats || []).length > 0;
    const lines = [];
    let canClaim = false;
    const turnBased = !!(v.table && v.table.turn_based);
    if (v.forfeit) lines.push(this.forfeitText(v.forfeit));
    else if (turnBased && !v.over) {
      if (seated) lines.push(t("turn_based_note"));  // nobody is claimed against for being away: the days clock decides
    } else if (!v.over) {
      for (const seat of [0, 1]) {
        if (this.you(seat)) continue;
        const p = this.presence && this.presence[seat];
        if (p && !p.connected && p.away_since) {
          const away = Math.max(0, now - p.away_since);
          lines.push(t("away", { name: this.name(seat), t: duration(away) }));
          if (seated) {
            // On your own turn your clock runs whether they are here or not: never advise waiting
            // then, only playing on; their clock runs on their turn (docs/protocol.md, "Away on your turn").
            const yours = v.to_act !== null && v.to_act !== undefined && this.you(v.to_act);
            if (away >= CLAIM_AFTER) { canClaim = true; lines.push(t(yours ? "away_claim_now_your_turn" : "away_claim_now")); }
            else lines.push(yours ? t("away_play_on") : t("away_claim_in", { t: duration(CLAIM_AFTER - away) }));
          }
        }
      }
      const c = v.clock;
      if (seated && c && c.claim_only && c.running !== null && !this.you(c.running) && c.deadline && now >= c.deadline) {
        canClaim = true;
        lines.push(t("idle_claim_now", { name: this.name(c.running) }));
      }
    }
    const opp = seated ? 1 - this.vw : null;
    if (v.over && opp !== null && this.rematchAsked.includes(opp) && !this.rematchAsked.includes(this.vw)) {
      lines.push(t("rematch_offered", { name: this.name(opp) }));
    } else if (v.over && opp !== null && this.rematchAsked.includes(this.vw)) {
      lines.push(t("rematch_wait", { name: this.name(opp) }));
    }
    const text = lines.join(" ");
    const e = $("presence");
    if (e.textContent !== text) e.textContent = text;
    e.hidden = !text;
    $("controls").querySelector("[data-act=claim]").hidden = !canClaim;
    const ledger = this.ledgerText(msg);
    $("ledger").textContent = ledger;
    $("ledger").hidden = !ledger;
  }

  // The reader's ledger entries in the view, oldest first: one per finished game.
  mine(msg) {
    const v = msg.view;
    if (!v.ledger || !(msg.seats || []).length) return [];
    return v.ledger.filter((e) => this.you(e.seat));
  }

  // The points this match has moved for the reader so far.
  ledgerText(msg) {
    const mine = this.mine(msg);
    if (!mine.length) return "";
    const sum = mine.reduce((a, e) => a + e.amount, 0);
    if (!sum) return t("ledger_zero");
    return t(sum > 0 ? "ledger_gain" : "ledger_loss", { pts: plural("points", Math.abs(sum)) });
  }

  // How a match ended early: who left, ran out of time or was claimed against while away.
  forfeitText(f) {
    const key = { timeout: "timeout_by", away: "away_by" }[f.why] || "left_by";
    return t(this.you(f.seat) ? key + "_you" : key, { name: this.name(f.seat) });
  }

  // What the end of a game adds to the result dialog: a forfeit, what this game brought or cost
  // (the reader's last entry), and the match's total once earlier games moved points too.
  resultNote(msg) {
    this.msg = msg;
    const v = msg.view, parts = [];
    if (v.forfeit) parts.push(this.forfeitText(v.forfeit));
    const mine = this.mine(msg);
    if (mine.length) {
      const last = mine[mine.length - 1].amount;
      parts.push(last ? t(last > 0 ? "ledger_game_gain" : "ledger_game_loss", { pts: plural("points", Math.abs(last)) })
        : t("ledger_game_zero"));
      if (mine.length > 1) parts.push(this.ledgerText(msg));
    }
    return parts.join(" ");
  }

  // The socket's online messages.
  other(m) {
    if (m.type === "chat") this.chat.add([m]);
    else if (m.type === "chat_history") this.chat.add(m.messages || []);
    else if (m.type === "presence") {
      this.presence = m.presence;
      if (typeof m.now === "number") { this.offset = skew(m.now, Date.now()); this.presenceAt = m.now; }
      this.tick();
    } else if (m.type === "rematch") {
      this.rematchAsked = m.asked || [];
      if (m.game) { this.go(`#/game/${m.game}`); return; }
      this.tick();
    }
  }

  // The online controls; true when `act` was one of them.
  control(act) {
    if (!this.msg) return false;
    if (act === "leave") { $("dlg-leave").showModal(); return true; }
    if (act === "claim") { this.request(online.claim); return true; }
    if (act === "rematch") {
      this.request(online.rematch).then((res) => {
        if (!res) return;
        if (res.table && res.table.game) this.go(`#/game/${res.table.game}`);
        else { this.rematchAsked = [...new Set([...this.rematchAsked, this.vw])]; this.tick(); }
      });
      return true;
    }
    return false;
  }

  async request(call) {
    const table = this.msg && (this.msg.config.table || (this.msg.view.table && this.msg.view.table.id));
    if (!table) return null;
    try { return await call(table); } catch (err) { this.say(err instanceof online.OnlineError ? this.refusal(err.code) : t("unreachable_title")); return null; }
  }
}
