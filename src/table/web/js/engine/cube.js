// The computer's cube and resignation decisions (table.bot.cube and table.bot.met are the
// reference): Janowski's cubeful equity from cubeless chances, for money and for match play, over
// Table's own match equity model.  Chances are {win, winGammon, winBackgammon, loseGammon,
// loseBackgammon} for the player on roll.

import { isRace } from "./rules.js";

const GAMMONS = 0.2;
// Measured against Table's cubeful rollouts (docs/cube.md).
const CONTACT_EFFICIENCY = 0.72;
const RACE_EFFICIENCY = 0.72;
const TOO_GOOD_SLOPE = 0.15; // past the cash point, a fraction of Janowski's slope to W (table.bot.cube)
// The spread of the leader's chance in the game when the trailer doubles post-Crawford.
const FREE_DROP_SPREAD = 0.06;

function memo(f) {
  const cache = new Map();
  return (a, b) => {
    const key = `${a},${b}`;
    if (!cache.has(key)) cache.set(key, f(a, b));
    return cache.get(key);
  };
}

// The leader's chance, post-Crawford, when the trailer doubles at once: `keep` after losing the
// doubled game, `drop` after dropping; his chance q in the game is spread evenly over 0.5 +/- spread
// and he takes or drops, whichever is worth more (the free drop).
export function answerFirstDouble(keep, drop, spread = FREE_DROP_SPREAD) {
  const lo = 0.5 - spread, hi = 0.5 + spread;
  const take = (q) => q + (1 - q) * keep;
  if (spread <= 0) return Math.max(take(0.5), drop);
  // Taking is worth more above qEven, dropping below.
  const qEven = Math.min(Math.max(keep < 1 ? (drop - keep) / (1 - keep) : lo, lo), hi);
  return (drop * (qEven - lo) + 0.5 * (take(qEven) + take(hi)) * (hi - qEven)) / (hi - lo);
}

const postCrawford = memo((a, b) => {
  if (a <= 0) return 1;
  if (b <= 0) return 0;
  if (a === 1 && b === 1) return 0.5;
  if (a === 1) {
    // The trailer doubles at once: a game for 2 points, 4 with a gammon, or a drop.
    const keep = (1 - GAMMONS) * postCrawford(1, b - 2) + GAMMONS * postCrawford(1, b - 4);
    return answerFirstDouble(keep, postCrawford(1, b - 1));
  }
  return 1 - postCrawford(b, a);
});

const crawfordGame = memo((a, b) => {
  if (a <= 0) return 1;
  if (b <= 0) return 0;
  if (a === 1 && b === 1) return 0.5;
  if (a === 1) return 0.5 + 0.5 * ((1 - GAMMONS) * postCrawford(1, b - 1) + GAMMONS * postCrawford(1, b - 2));
  return 1 - crawfordGame(b, a);
});

const preCrawford = memo((a, b) => {
  if (a <= 0) return 1;
  if (b <= 0) return 0;
  if (a === 1 || b === 1) return crawfordGame(a, b);
  if (a > b) return 1 - preCrawford(b, a);
  return new CubeModel(a, b, GAMMONS, GAMMONS, 0, 0, preCrawford).centred(0.5);
});

// Chance that the player needing `a` points wins against one needing `b` (pre-Crawford).
export const matchEquity = (a, b) => (a <= 0 ? 1 : b <= 0 ? 0 : a === 1 || b === 1 ? crawfordGame(a, b) : preCrawford(a, b));

// Where a rising function crosses zero in [0, 1] (0 or 1 if it does not).
function root(f) {
  let lo = 0, hi = 1;
  if (f(lo) >= 0) return 0;
  if (f(hi) <= 0) return 1;
  for (let i = 0; i < 60; i++) {
    const mid = 0.5 * (lo + hi);
    if (f(mid) > 0) hi = mid; else lo = mid;
  }
  return 0.5 * (lo + hi);
}

// The continuous-cube value of one game at a score, in match winning chances for player A.
class CubeModel {
  constructor(a, b, gw, gl, bw, bl, after) {
    Object.assign(this, { a, b, gw, gl, bw, bl, after });
    this.points = new Map();
  }

  win(v) {
    return (1 - this.gw) * this.after(this.a - v, this.b) + (this.gw - this.bw) * this.after(this.a - 2 * v, this.b)
      + this.bw * this.after(this.a - 3 * v, this.b);
  }

  lose(v) {
    return (1 - this.gl) * this.after(this.a, this.b - v) + (this.gl - this.bl) * this.after(this.a, this.b - 2 * v)
      + this.bl * this.after(this.a, this.b - 3 * v);
  }

  cashA(v) { return this.after(this.a - v, this.b); }

  cashB(v) { return this.after(this.a, this.b - v); }

  dead(v, p) { return p * this.win(v) + (1 - p) * this.lose(v); }

  isDead(v) { return v >= this.a && v >= this.b; }

  aOwns(v, p) {
    const plain = this.dead(v, p);
    if (this.isDead(v) || this.a - v <= 0) return plain;
    const t = this.point(v, "a");
    const doubled = p >= t ? this.cashA(v) : this.lose(v) + ((this.cashA(v) - this.lose(v)) * p) / t;
    return Math.max(plain, doubled);
  }

  bOwns(v, p) {
    const plain = this.dead(v, p);
    if (this.isDead(v) || this.b - v <= 0) return plain;
    const t = this.point(v, "b");
    const doubled = p <= t ? this.cashB(v) : this.cashB(v) + ((this.win(v) - this.cashB(v)) * (p - t)) / (1 - t);
    return Math.min(plain, doubled);
  }

  centred(p, v = 1) {
    const hi = this.point(v, "a"), lo = this.point(v, "b");
    if (p >= hi) return this.cashA(v);
    if (p <= lo) return this.cashB(v);
    return this.cashB(v) + ((this.cashA(v) - this.cashB(v)) * (p - lo)) / (hi - lo);
  }

  point(v, who) {
    const key = `${v},${who}`;
    if (!this.points.has(key)) {
      this.points.set(key, who === "a" ? root((p) => this.bOwns(2 * v, p) - this.cashA(v))
        : root((p) => this.aOwns(2 * v, p) - this.cashB(v)));
    }
    return this.points.get(key);
  }
}

// True when the opponent bears off his last checkers with any roll on his next turn (a race
// only): the player on roll's double is then the game's last cube action, and the cube is dead.
export function lastRoll(board) {
  if (!isRace(board)) return false;
  let checkers = 0, highest = 0, pips = 0;
  for (let i = 0; i < 25; i++) {
    if (board[i] < 0) {
      if (i < 19) return false;
      const point = 25 - i;
      checkers -= board[i];
      pips -= board[i] * point;
      highest = Math.max(highest, point);
    }
  }
  if (checkers === 1) return highest <= 3;
  return checkers === 2 && pips <= 3;
}

// How live the cube is at `board` (the player on roll's view): one value in contact, one in a
// race, none at the last roll (table.bot.cube.board_efficiency).
export function efficiency(board) {
  if (lastRoll(board)) return 0;
  return isRace(board) ? RACE_EFFICIENCY : CONTACT_EFFICIENCY;
}

function moneyEquity(p, owner, x) {
  const w = p.win > 1e-9 ? 1 + (p.winGammon + p.winBackgammon) / p.win : 1;
  const lose = 1 - p.win;
  const ell = lose > 1e-9 ? 1 + (p.loseGammon + p.loseBackgammon) / lose : 1;
  const pw = p.win;
  const dead = pw * w - (1 - pw) * ell;
  const tp = (ell - 0.5) / (w + ell + 0.5), cp = (ell + 1) / (w + ell + 0.5);
  let live;
  if (owner === "opponent") live = pw <= tp ? -1 : -1 + ((w + 1) * (pw - tp)) / (1 - tp);
  else if (pw >= cp) live = 1 + (TOO_GOOD_SLOPE * (w - 1) * (pw - cp)) / (1 - cp);
  else if (owner === "player") live = -ell + ((ell + 1) * pw) / cp;
  else live = pw <= tp ? -1 : -1 + (2 * (pw - tp)) / (cp - tp);
  return x * live + (1 - x) * dead;
}

const decision = (double, take, nd, dt, dp) => ({ double, take, nd, dt, dp, best: double ? Math.min(dt, dp) : nd });

// Money play (no Jacoby): should the player on roll double, should the opponent take?
export function moneyDouble(p, cube, owner, x) {
  const nd = cube * moneyEquity(p, owner, x);
  if (owner === "opponent") return decision(false, true, nd, nd, nd);
  const dt = 2 * cube * moneyEquity(p, "opponent", x), dp = cube;
  return decision(Math.min(dt, dp) > nd, dt <= dp, nd, dt, dp);
}

function model(p, a, b) {
  // With a side 1-away this game is the Crawford game or a later one: every game after it is
  // post-Crawford.
  const post = a === 1 || b === 1;
  const after = (x, y) => (x <= 0 ? 1 : y <= 0 ? 0 : post ? postCrawford(x, y) : x === 1 || y === 1 ? crawfordGame(x, y) : matchEquity(x, y));
  const lose = 1 - p.win;
  const gw = p.win > 1e-9 ? p.winGammon / p.win : 0, bw = p.win > 1e-9 ? p.winBackgammon / p.win : 0;
  const gl = lose > 1e-9 ? p.loseGammon / lose : 0, bl = lose > 1e-9 ? p.loseBackgammon / lose : 0;
  return new CubeModel(a, b, gw, gl, bw, bl, after);
}

// Match play: the same question in match winning chances.  `score` is [player on roll, opponent].
export function matchDouble(p, length, score, cube, owner, crawford, x) {
  const a = length - score[0], b = length - score[1];
  const m = model(p, a, b);
  const pw = p.win;
  if (crawford) {
    // No cube in the Crawford game: the game's plain value at the score.
    const nd = m.dead(cube, pw);
    return decision(false, true, nd, nd, nd);
  }
  const live = owner === "centre" ? m.centred(pw, cube) : owner === "player" ? m.aOwns(cube, pw) : m.bOwns(cube, pw);
  const nd = x * live + (1 - x) * m.dead(cube, pw);
  // A cube already past what A needs gains nothing.
  if (owner === "opponent" || (a - cube <= 0 && b - cube <= 0)) return decision(false, true, nd, nd, nd);
  const dt = x * m.bOwns(2 * cube, pw) + (1 - x) * m.dead(2 * cube, pw);
  const dp = m.cashA(cube);
  return decision(Math.min(dt, dp) > nd + 1e-12, dt <= dp, nd, dt, dp);
}

// Should the player holding `p` accept the opponent's resignation of `points` x cube?
export function acceptResignation(p, points, cube, owner, length, score, crawford, x) {
  if (length === 0) return points * cube >= moneyDouble(p, cube, owner, x).best - 1e-9;
  const a = length - score[0], b = length - score[1];
  const offered = model(p, a, b).after(a - points * cube, b);
  return offered >= matchDouble(p, length, score, cube, owner, crawford, x).best - 1e-9;
}
