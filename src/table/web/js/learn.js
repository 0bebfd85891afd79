// Learning from the game: the move list, the computer's hint, export, and the review after the game.
// The server writes every play from each side; this module only picks the reader's side.
import { t, num, signed, percent as pct } from "./i18n.js";
import { diceText, playText, moveRows, pairNumber } from "./notation.js";
import { variantName, variantOf } from "./app/variants.js";
import { seriesGame, seriesOf } from "./engine/variants.js";

const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// Why a match has no .mat / SGF record (the export's why_code), in the player's language.
const WHY = { position: "export_no_records", variant: "export_why_variant" };
export const exportWhy = (code, variant) => t(WHY[code] || "export_why_other", { game: variantName(variant) });

const fixed = (x, digits) => num(x, { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function getJSON(url, token, options = {}) {
  const headers = Object.assign({}, options.headers || {});
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(url, Object.assign({}, options, { headers }));
  const body = await res.json();
  if (!res.ok) { const err = new Error(body.message); err.code = body.code; throw err; }
  return body;
}

export class Learn {
  // ctx: {token(), name(msg, seat), numbering(msg, seat), peek(state|null), say(text), hints(),
  //   local(game, kind): the answer (moves, export, hint) for a game on this device, null for the server's}
  constructor(ctx) {
    this.ctx = ctx;
    this.msg = null; this.moves = []; this.listed = -1; this.version = -1; this.panel = null; this.reviewTimer = 0;
    this.wide = window.matchMedia ? window.matchMedia("(min-aspect-ratio: 5/4)") : { matches: true };
    $("btn-moves").onclick = () => this.toggleMoves();
    $("btn-hint").onclick = () => this.hint();
    $("btn-export").onclick = () => this.exportPanel();
    $("btn-review").onclick = () => this.review();
    $("btn-peek-back").onclick = () => this.back();
    this.showMoves(this.wide.matches);
  }

  get game() { return this.msg ? this.msg.game : null; }
  seated() { return this.msg && (this.msg.seats || []).length > 0; }

  // A new state: refresh the move list (once per version), the buttons, and drop a stale hint.
  update(msg) {
    const newGame = !this.msg || this.msg.game !== msg.game;
    this.msg = msg;
    if (newGame) { this.moves = []; this.listed = -1; this.version = -1; this.close(); this.back(); }
    const v = msg.view;
    const online = msg.config.mode === "online";
    const mine = v.to_act !== null && (msg.seats || []).includes(v.to_act);
    const hintable = ["move", "roll", "take"].includes(v.phase) && (v.phase !== "roll" || (v.actions || []).includes("double"));
    const device = !!msg.config.device; // no review without the server (hints come from the device)
    $("btn-hint").hidden = online || !this.seated() || !this.ctx.hints();
    $("btn-hint").disabled = !(mine && hintable && (v.phase !== "move" || v.moves));
    $("btn-export").hidden = !this.seated();
    // Online, no computer help while the match is played: its review opens when it has ended.
    $("btn-review").hidden = device || !this.seated() || !(online ? v.over : v.result || v.over);
    if (this.panel === "hint" && this.hintVersion !== msg.version) this.close();
    if (msg.version !== this.version) this.fetchMoves(msg.version);
    else this.renderMoves();
  }

  // Only the entries after those already here: a long match would otherwise send its whole list
  // again after every state. The answer says where its entries begin (`from`, none for a game on
  // this device: the whole list) and at which version; one overtaken by a newer is dropped.
  async fetchMoves(version) {
    this.version = version;
    const game = this.game;
    try {
      const body = await (this.ctx.local(game, "moves")
        || getJSON(`/api/games/${encodeURIComponent(game)}/moves?from=${this.moves.length}`, this.ctx.token()));
      const from = body.from || 0, at = body.version === undefined ? Infinity : body.version;
      if (body.game !== this.game || at < this.listed || from > this.moves.length) return;
      this.moves = this.moves.slice(0, from).concat(body.moves);
      this.listed = at;
      this.renderMoves();
    } catch (_) { /* the list stays as it was; the next state asks again */ }
  }

  showMoves(open) {
    $("move-list").hidden = !open;
    $("btn-moves").setAttribute("aria-expanded", String(open));
    this.layout();
  }
  // On a phone, an open list or panel must not squeeze the board: the screen scrolls instead.
  layout() {
    document.body.classList.toggle("learn-open", !$("move-list").hidden || !$("learn-panel").hidden);
  }
  toggleMoves() { this.showMoves($("move-list").hidden); }

  // Moves in numbered pairs, white's then black's, as players write them (notation.moveRows); a
  // game's heading, cube actions and results on lines of their own.
  renderMoves() {
    const list = $("move-list");
    list.textContent = "";
    const msg = this.msg;
    this.numbers = {};
    for (const row of moveRows(this.moves)) {
      if (row.event === undefined) {
        const li = el("li", "move-line");
        li.append(el("span", "n", `${row.n}.`));
        for (const i of row.cells) {
          if (i === null) { li.append(el("span", "gap", "…")); continue; }
          const e = this.moves[i];
          this.numbers[i] = row.n;
          const b = el("button", "", "");
          b.type = "button";
          b.dataset.index = String(i);
          b.append(el("span", `swatch c${e.seat}`), el("span", "d", diceText(e.dice)));
          const text = e.text[this.ctx.numbering(msg, e.seat)];
          b.append(el("span", "p", text ? playText(text, { bar: t("note_bar"), off: t("note_off") }) : t("moves_none")));
          b.onclick = () => this.peekMove(i);
          li.append(b);
        }
        list.append(li);
        continue;
      }
      const e = this.moves[row.event];
      let li;
      if (e.kind === "game") {
        const vw = this.ctx.numbering(msg, 0);
        li = el("li", "game-line", msg.view.length > 1
          ? t("moves_game_score", { n: e.game, a: e.score[vw], b: e.score[1 - vw] }) : t("moves_game", { n: e.game }));
      } else if (e.kind === "result") {
        li = el("li", "result-line", t("moves_result", { name: this.ctx.name(msg, e.winner), points: e.points }));
      } else {
        li = el("li", "cube-line", t("moves_" + e.kind, { name: this.ctx.name(msg, e.seat), v: e.cube * 2, c: e.cube }));
      }
      list.append(li);
    }
    if (!$("peek").hidden) return;
    list.scrollTop = list.scrollHeight;
  }

  peekMove(i) {
    const e = this.moves[i];
    const number = this.numbers[i];
    const found = this.moves.slice(0, i).reverse().find((x) => x.kind === "game");
    const game = found ? found.game : 1;
    this.peek({ board: e.board, steps: e.steps, hits: e.hits, seat: e.seat, dice: e.dice,
      variant: gameOf(this.msg, game), game },
    t("peek_move", { n: number, name: this.ctx.name(this.msg, e.seat) }));
  }

  peek(state, text) {
    $("peek").hidden = false;
    $("peek-text").textContent = text;
    this.ctx.peek(state);
  }
  back() {
    if ($("peek").hidden) return;
    $("peek").hidden = true;
    this.ctx.peek(null);
  }

  // ---- panels -------------------------------------------------------------------
  open(kind, title) {
    this.panel = kind;
    const p = $("learn-panel");
    p.hidden = false;
    p.textContent = "";
    this.layout();
    const head = el("div", "panel-head");
    head.append(el("h3", "", title));
    const close = el("button", "close", "×");
    close.type = "button";
    close.setAttribute("aria-label", t("close"));
    close.onclick = () => this.close();
    head.append(close);
    p.append(head);
    return p;
  }
  close() {
    this.panel = null;
    clearTimeout(this.reviewTimer);
    $("learn-panel").hidden = true;
    $("learn-panel").textContent = "";
    this.layout();
  }

  async hint() {
    const msg = this.msg;
    const p = this.open("hint", t("hint_title"));
    this.hintVersion = msg.version;
    p.append(el("p", "muted", t("hint_thinking")));
    let h;
    try {
      h = await (this.ctx.local(this.game, "hint") || getJSON(`/api/games/${encodeURIComponent(this.game)}/hint`, this.ctx.token()));
    } catch (err) {
      if (this.panel === "hint") { p.lastChild.textContent = t("hint_refused"); }
      return;
    }
    if (this.panel !== "hint" || this.hintVersion !== msg.version) return;
    p.lastChild.remove();
    if (h.kind === "play") {
      const table = el("table", "hint-table");
      const head = el("tr");
      for (const k of ["hint_play", "hint_equity", "hint_diff", "hint_win", "hint_gammon"]) head.append(el("th", "", t(k)));
      table.append(head);
      h.plays.forEach((pl, i) => {
        const tr = el("tr", i === 0 ? "best" : "");
        const text = playText(pl.play, { bar: t("note_bar"), off: t("note_off") });
        tr.append(el("td", "p", `${i + 1}. ${text}`), el("td", "num", signed(pl.equity)),
          el("td", "num", i === 0 ? "" : signed(pl.diff)), el("td", "num", pct(pl.probabilities.win)),
          el("td", "num", pct(pl.probabilities.winG)));
        table.append(tr);
      });
      p.append(table);
    } else {
      const best = !h.double ? "hint_best_no_double" : h.take ? "hint_best_double_take" : "hint_best_double_pass";
      const dl = el("dl", "hint-cube");
      for (const [k, x] of [["hint_no_double", h.no_double], ["hint_double_take", h.double_take], ["hint_double_pass", h.double_pass]]) {
        const row = el("div");
        row.append(el("dt", "", t(k)), el("dd", "num", signed(x)));
        dl.append(row);
      }
      p.append(dl, el("p", "best", t(best)),
        el("p", "muted", t("hint_chances", { w: pct(h.probabilities.win), g: pct(h.probabilities.winG) })));
    }
    p.append(el("p", "muted small", t("hint_note")));
  }

  async exportPanel() {
    const p = this.open("export", t("export_title"));
    let x;
    try {
      x = await (this.ctx.local(this.game, "export") || getJSON(`/api/games/${encodeURIComponent(this.game)}/export`, this.ctx.token()));
    } catch (_) { p.append(el("p", "", t("export_failed"))); return; }
    if (this.panel !== "export") return;
    const row = el("div", "export-files");
    if (x.mat === null) {
      const why = el("p", "muted", exportWhy(x.why_code, variantOf(this.msg.config)));
      why.id = "export-why";
      p.append(why);
    }
    // Table's JSON record holds every match, a game GNU Backgammon does not play included.
    const json = x.json ? JSON.stringify(x.json) : null;
    for (const [kind, type, text] of [["mat", "text/plain", x.mat], ["sgf", "application/x-go-sgf", x.sgf],
      ["json", "application/json", json]]) {
      if (!text) continue;
      const a = el("a", "button", t("export_" + kind));
      a.href = URL.createObjectURL(new Blob([text], { type }));
      a.download = `table-${this.game}.${kind}`;
      a.dataset.kind = kind;
      row.append(a);
    }
    p.append(row);
    for (const [k, value] of [["export_position", x.position], ["export_match", x.match], ["export_xgid", x.xgid]]) {
      if (!value) continue; // a game on this device has no XGID
      const label = el("label", "copy-row");
      const input = el("input");
      input.readOnly = true; input.value = value; input.dataset.kind = k;
      const b = el("button", "", t("copy"));
      b.type = "button";
      b.onclick = async () => {
        input.select();
        try { await navigator.clipboard.writeText(value); this.ctx.say(t("copied_text")); } catch (_) { /* selected: the player copies it */ }
      };
      label.append(el("span", "", t(k)), input, b);
      p.append(label);
    }
  }

  // ---- the review ------------------------------------------------------------------
  review() {
    const p = this.open("review", t("review_title"));
    const url = `/api/games/${encodeURIComponent(this.game)}/review`;
    const msg = this.msg;
    runReview(p, url, url, this.ctx.token(), {}, () => this.panel === "review", (r) => {
      const q = this.open("review", t("review_title"));
      renderReview(q, r, {
        name: (seat) => this.ctx.name(msg, seat),
        side: (seat) => this.ctx.numbering(msg, seat),
        pick: (d, best) => this.peek({ board: d.board, steps: d.best_play ? d.best_play.steps : [],
          hits: d.best_play ? d.best_play.hits : [], seat: d.player, dice: d.dice, variant: d.variant,
          game: d.game },
        t("peek_review", { best })),
      });
    }, (timer) => { this.reviewTimer = timer; });
  }
}

// Start a review (POST `start`), show its progress in `p` while `alive()`, poll `poll` (or the id
// the answer names), then call `done(review)`.
export async function runReview(p, start, poll, token, body, alive, done, timer) {
  const bar = el("progress");
  bar.id = "review-progress";
  const note = el("p", "muted", t("review_running"));
  p.append(note, bar);
  let job;
  try {
    job = await getJSON(start, token, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } catch (err) {
    note.textContent = err.code === "bad_request" ? t("review_unreadable")
      : err.code === "match_in_play" ? t("err_code_match_in_play")
      : err.code === "no_review" ? t("err_code_no_review") : t("review_failed");
    bar.remove(); return;
  }
  const url = job.id && job.id.startsWith("import-") ? `/api/review/${job.id}` : poll;
  const step = () => {
    if (!alive()) return;
    if (job.total) { bar.max = job.total; bar.value = job.done; }
    if (job.state === "done") { done(job.review); return; }
    if (job.state === "failed") { note.textContent = t("review_failed"); bar.remove(); return; }
    timer(setTimeout(async () => {
      try { job = await getJSON(url, token); } catch (_) { /* asked again below */ }
      step();
    }, 400));
  };
  step();
}

// The variant name of game `n` of the match `msg` (1 = the first) where its games change variant
// (the Tavli match); null otherwise.
function gameOf(msg, n) {
  const series = seriesOf(msg.view.kind);
  return series ? seriesGame(series, n).name : null;
}

// Each player's figures, then the marked decisions (?!, ?, ??); `who`: {name(seat), side(seat), pick(d, best)?}.
export function renderReview(p, r, who) {
  const table = el("table", "review-table");
  const head = el("tr");
  for (const k of ["review_player", "review_rate", "review_cube", "review_luck"]) head.append(el("th", "", t(k)));
  table.append(head);
  r.totals.forEach((tot, seat) => {
    const tr = el("tr");
    const rate = tot.error_rate === null ? "—" : `${fixed(tot.error_rate, 1)} · ${t("rating_" + tot.rating)}`;
    tr.append(el("td", "", who.name(seat)), el("td", "num", rate),
      el("td", "num", String(tot.cube_errors)), el("td", "num", signed(tot.luck)));
    table.append(tr);
  });
  p.append(table, el("p", "muted small", t("review_depth", { d: r.depth })));
  const marked = r.decisions.filter((d) => d.mark);
  if (!marked.length) { p.append(el("p", "", t("review_clean"))); return; }
  const list = el("ol", "review-list");
  list.id = "review-list";
  const words = { bar: t("note_bar"), off: t("note_off") };
  // A play in the reader's numbering, a cube action's word, or (Acey-Deucey) the double named.
  const said = (play, plain, side, kind) => (kind === "name" ? t("review_name_double", { dice: plain })
    : play ? playText(play.text[side] || t("moves_none"), words) : t("review_" + plain.replace(" ", "_")));
  for (const d of marked) {
    const li = el("li");
    const b = el(who.pick ? "button" : "div", "", "");
    if (who.pick) b.type = "button";
    const side = who.side(d.player);
    const played = said(d.played_play, d.played, side, d.kind), best = said(d.best_play, d.best, side, d.kind);
    b.append(el("span", "mark", d.mark),
      el("span", "", t("review_line", { g: d.game, n: pairNumber(d.move, d.kind === "take" ? 1 - d.player : d.player), name: who.name(d.player),
        d: d.dice ? diceText(d.dice) + ": " : "", played, best, loss: fixed(d.loss, 3) })));
    if (who.pick) b.onclick = () => who.pick(d, best);
    li.append(b);
    list.append(li);
  }
  p.append(list);
}
