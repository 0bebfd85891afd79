// A player's rating, statistics, rating chart and finished matches (GET /api/players/{name} and
// /games), and the replay of one match on the board, step by step (GET /api/games/{id}/replay, or
// POST /api/replay for a pasted record).
import { t, plural, locale, num as format } from "./i18n.js";
import { request, me } from "./online.js";
import { ratingChart } from "./chart.js";
import { Board } from "./board.js";
import { variantName, variantLabel, variantOf } from "./app/variants.js";
import { VARIANTS } from "./engine/variants.js";

const node = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};
export const num = (n, digits = 0) => format(n, { maximumFractionDigits: digits });
const day = (at) => new Intl.DateTimeFormat(locale(), { day: "numeric", month: "short" }).format(new Date(at * 1000));

// Previous / next page buttons under a list; `go(n)` shows page n.
export function pager(page, pages, go) {
  const nav = node("div", "pager");
  if (pages <= 1) return nav;
  const prev = node("button", "", t("st_prev")), next = node("button", "", t("st_next"));
  prev.type = next.type = "button";
  prev.disabled = page <= 1; next.disabled = page >= pages;
  prev.onclick = () => go(page - 1); next.onclick = () => go(page + 1);
  nav.append(prev, node("span", "muted", t("st_page", { n: page, m: pages })), next);
  return nav;
}

function streakText(s) {
  if (!s) return "—";
  return plural(s > 0 ? "st_streak_win" : "st_streak_loss", Math.abs(s));
}

// Rating, statistics and chart of player `p` (the player page's answer) into `box`.
export function showStats(box, p) {
  box.textContent = "";
  const dl = node("dl", "stats");
  const row = (key, value, id) => {
    const d = node("div");
    const dd = node("dd", "", value);
    if (id) dd.id = id;
    d.append(node("dt", "", t(key)), dd);
    dl.appendChild(d);
  };
  row("st_rating", num(p.rating, 1), "player-rating");
  row("st_experience", num(p.experience), "player-experience");
  row("st_games", num(p.games), "player-stat-games");
  row("st_wins", num(p.wins));
  row("st_losses", num(p.losses));
  row("st_gammons", `${p.gammons.won} / ${p.gammons.lost}`);
  row("st_backgammons", `${p.backgammons.won} / ${p.backgammons.lost}`);
  row("st_wins_colors", `${p.wins_white} / ${p.wins_black}`);
  row("st_average_length", p.average_length == null ? "—" : plural("st_points", Math.round(10 * p.average_length) / 10));
  row("st_streak", streakText(p.streak), "player-streak");
  box.appendChild(dl);
  showVariants(box, p.variants || []);
  box.appendChild(node("h3", "", t("st_chart")));
  const h = p.rating_history;
  // Under 100 points the history is whole: it starts from everybody's 1500 before the first match.
  const line = h.length && h.length < 100 ? [{ at: h[0].at, rating: 1500 }, ...h] : h;
  if (h.length) box.appendChild(ratingChart(line, t("st_chart"), day));
  else box.appendChild(node("p", "muted", t("st_chart_empty")));
}

function endedText(g, seat) {
  const won = g.winner === seat;
  const score = `${g.score[seat]}–${g.score[1 - seat]}`;
  const how = g.ended === "normal" ? "" : ` (${t(`st_ended_${g.ended}_${won ? "won" : "lost"}`)})`;
  return t(won ? "st_won" : "st_lost", { score }) + how;
}

// Each variant's rating and record, where the player has played one other than standard backgammon
// (the rating above is standard backgammon's; every variant has its own).
function showVariants(box, variants) {
  if (!variants.some((v) => v.variant !== "standard")) return;
  box.appendChild(node("h3", "", t("st_variants")));
  const dl = node("dl", "stats");
  dl.id = "player-variants";
  for (const v of variants) {
    const d = node("div");
    d.dataset.variant = v.variant;
    d.append(node("dt", "", variantName(v.variant)),
      node("dd", "", t("st_variant_line", { rating: num(v.rating, 1), w: num(v.wins), l: num(v.losses) })));
    dl.appendChild(d);
  }
  box.appendChild(dl);
}

// The finished matches of `name`, page `page`, into `box`.
export async function showGames(box, name, page = 1) {
  let data;
  try { data = await request("GET", `/api/players/${encodeURIComponent(name)}/games?page=${page}`); } catch (_) {
    box.textContent = t("unreachable_title");
    return;
  }
  box.textContent = "";
  box.appendChild(node("h3", "", t("st_history")));
  const ul = node("ul", "tables history");
  if (!data.games.length) ul.appendChild(node("li", "empty", t("st_history_none")));
  const when = new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" });
  for (const g of data.games) {
    const seat = g.players[0].name === name ? 0 : 1;
    const other = g.players[1 - seat];
    const li = node("li", "history-item");
    const head = node("div");
    const res = node("b", g.winner === seat ? "plus" : "minus", endedText(g, seat));
    const vs = node("a", "", other.name);
    vs.href = `#/player/${encodeURIComponent(other.name)}`;
    head.append(res, " ", t("st_vs"), " ", vs);
    if (variantLabel(g)) head.append(" ", node("span", "badge variant", variantLabel(g)));
    if (!g.rated) head.append(" ", node("span", "badge", t("st_unrated")));
    const sub = node("div", "muted", `${when.format(new Date(g.at * 1000))} · ${plural("st_length", g.length)}`);
    const mine = g.players[seat];
    if (g.rated && mine.rating_before != null && mine.rating_after != null) {
      const d = mine.rating_after - mine.rating_before;
      sub.append(` · ${t("st_rating")} ${format(d, { maximumFractionDigits: 1, signDisplay: "exceptZero" })}`);
    }
    const links = node("div", "history-links");
    const replay = node("a", "replay-link", t("st_replay"));
    replay.href = `#/replay/${encodeURIComponent(g.game)}`;
    links.append(replay, ...recordLinks(g));
    li.append(head, sub, links);
    ul.appendChild(li);
  }
  box.appendChild(ul);
  box.appendChild(pager(data.page, data.pages, (n) => showGames(box, name, n)));
}

// The download links of a finished match's records: .mat and SGF where GNU Backgammon plays its
// variant, else (Race, Dutch, Acey-Deucey: no_record) Table's JSON record, which holds any match.
export function recordLinks(g) {
  const v = VARIANTS[variantOf(g)];
  const kinds = v && !v.matName ? ["json"] : ["mat", "sgf"];
  return kinds.map((kind) => {
    const a = node("a", "", t("st_download_" + kind));
    a.href = `/api/games/${encodeURIComponent(g.game)}/record.${kind}`;
    a.dataset.kind = kind;
    a.setAttribute("download", kind === "json" ? `table-${g.game}.json` : "");
    return a;
  });
}

// ---- replay -----------------------------------------------------------------------------------

// One log entry in words, from the viewer's side: "you" when the viewer played that seat; `play` is a
// play's text numbered from the viewer's side (the entry's own, in the mover's numbering, without it).
export function entryText(e, names, mySeat, play) {
  const mine = e.seat !== null && e.seat === mySeat;
  const who = e.seat === null || e.seat === undefined ? "" : names[e.seat];
  const say = (key, params) => t(mine ? key + "_me" : key, Object.assign({ who }, params));
  const dice = (d) => (d ? `${d[0]}–${d[1]}` : "");
  switch (e.type) {
    case "opening_roll": return t("st_ev_opening", { a: names[0], b: names[1], d0: e.dice[0], d1: e.dice[1] });
    case "roll": return say("st_ev_roll", { dice: dice(e.dice) });
    case "move": return e.play ? say("st_ev_move", { play: play || e.play }) : say("st_ev_cannot");
    case "double": case "take": case "drop": case "accept_resignation": case "reject_resignation":
      return say("st_ev_" + e.type);
    case "resign": return say("st_ev_resign");
    case "name_double": return say("st_ev_name_double", { n: e.number });
    case "next_game": return t("st_ev_next_game");
    case "forfeit": return t("st_ev_forfeit", { who: names[e.loser] || "?" });
    case "recorded_result": return t("st_ev_recorded_result", { who: names[e.winner] || "?", points: e.points });
    default: return e.type || "?";
  }
}

const PASTED = "pasted";
const PASTED_KEY = "table.replay.record";

// A step of /replay as the board draws it, read-only, seen from `viewer`: a play with its arrows
// and dice (as the game's move-list peek shows it), a roll with its dice.
export function stepState(step, viewer) {
  const b = step.board;
  const s = {
    points: b.points, bar: b.bar, off: b.off, viewer, turn: null, local: false, numbersFor: viewer,
    showNumbers: true, cube: { value: step.cube, owner: step.owner, enabled: true }, dice: null,
    crawford: false, offeredBy: step.kind === "double" ? step.seat : null, rolling: false, tall: false, aspect: 0.75,
  };
  if (step.kind === "move" && step.steps && step.steps.length) {
    s.lastSteps = step.steps; s.lastHits = step.hits; s.lastSeat = step.seat; s.lastDice = step.dice;
  } else if ((step.kind === "roll" || step.kind === "opening_roll") && step.dice && step.seat !== null) {
    s.dice = step.dice; s.turn = step.seat;
  }
  return s;
}

// The paste dialog of the home screen ("Analizează o partidă") also offers to replay the pasted
// record on the board: it is kept for this tab and opened as #/replay/pasted.
function offerPastedReplay() {
  const go = document.getElementById("btn-import-go");
  if (!go || document.getElementById("btn-import-replay")) return;
  const b = node("button", "");
  b.type = "button"; b.id = "btn-import-replay"; b.dataset.i18n = "st_replay_board";
  b.textContent = t("st_replay_board");
  b.onclick = () => {
    sessionStorage.setItem(PASTED_KEY, document.getElementById("in-import").value);
    document.getElementById("dlg-import").close();
    location.hash = `#/replay/${PASTED}`;
  };
  go.before(b);
}
if (typeof document !== "undefined") offerPastedReplay();

export class Replay {
  constructor(root) {
    this.root = root;
    this.steps = [];
    this.at = 0;
    this.onKey = (ev) => {
      if (document.body.dataset.screen !== "replay") return;
      if (ev.key === "ArrowRight") { this.go(this.at + 1); ev.preventDefault(); }
      if (ev.key === "ArrowLeft") { this.go(this.at - 1); ev.preventDefault(); }
    };
    document.addEventListener("keydown", this.onKey);
  }

  async open(game) {
    const r = this.root;
    r.textContent = "";
    this.list = null;
    r.appendChild(node("h2", "", t("st_replay_title")));
    let rec;
    try {
      rec = game === PASTED
        ? await request("POST", "/api/replay", { record: sessionStorage.getItem(PASTED_KEY) || "" })
        : await request("GET", `/api/games/${encodeURIComponent(game)}/replay`);
    } catch (err) {
      const known = err.code === "not_found" || err.code === "not_finished";
      r.appendChild(node("p", "muted", game === PASTED && !known && err.message ? t("st_replay_bad", { message: err.message })
        : t(known ? "st_replay_missing" : "unreachable_title")));
      return;
    }
    const names = rec.players;
    const who = me();
    const mySeat = who && game !== PASTED ? names.indexOf(who.name) : -1;
    const side = mySeat >= 0 ? mySeat : 0;  // plays are written from the viewer's side, else white's
    this.steps = rec.steps.slice(1);
    this.start = rec.steps[0];
    this.side = side;
    this.entries = this.steps.map((s) => entryText(s.entry, names, mySeat, s.text && s.text[side]));
    r.appendChild(node("p", "muted", `${names[0]} – ${names[1]} · ${plural("st_length", rec.length)}`));
    this.now = node("p", "replay-now");
    this.now.id = "replay-now";
    this.now.setAttribute("aria-live", "polite");
    this.count = node("p", "muted");
    this.count.id = "replay-count";
    this.score = node("p", "muted");
    this.score.id = "replay-score";
    const nav = node("div", "pager");
    this.prev = node("button", "", t("st_step_back"));
    this.next = node("button", "primary", t("st_step_forward"));
    this.prev.type = this.next.type = "button";
    this.prev.id = "replay-prev"; this.next.id = "replay-next";
    this.prev.onclick = () => this.go(this.at - 1);
    this.next.onclick = () => this.go(this.at + 1);
    nav.append(this.prev, this.next);
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.id = "replay-board";
    svg.setAttribute("role", "group");
    svg.setAttribute("style", "display:block;width:100%;max-width:40rem;height:auto;margin:0 auto");
    // Read-only: the board's pick and drop do nothing here.
    this.board = new Board(svg, { pick: () => {}, drop: () => {}, t });
    this.names = names;
    this.list = node("ol", "replay-list");
    this.entries.forEach((text, i) => {
      const li = node("li", "", text);
      li.onclick = () => this.go(i + 1);
      this.list.appendChild(li);
    });
    r.append(svg, this.now, this.score, this.count, nav, node("p", "muted", t("st_replay_keys")), this.list);
    this.go(0);
  }

  // Step `i`: 0 before the first entry, n after the last.
  go(i) {
    if (!this.list) return;
    this.at = Math.max(0, Math.min(this.entries.length, i));
    const step = this.at ? this.steps[this.at - 1] : this.start;
    this.board.render(stepState(step, this.side));
    this.board.svg.dataset.step = String(this.at);
    this.now.textContent = this.at ? this.entries[this.at - 1] : t("st_replay_start");
    this.score.textContent = t("st_replay_score", { a: this.names[0], b: this.names[1], x: step.score[0], y: step.score[1] });
    this.count.textContent = t("st_step", { n: this.at, m: this.entries.length });
    this.prev.disabled = this.at === 0;
    this.next.disabled = this.at === this.entries.length;
    [...this.list.children].forEach((li, k) => li.classList.toggle("current", k === this.at - 1));
  }
}
