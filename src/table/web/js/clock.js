// The match clocks as the server sends them in `view.clock`: {preset, delay, reserve: [a, b],
// delay_left: [a, b], running, deadline, now, claim_only}, what each seat had left at the server's
// `now`.  Pure: what is left at another moment, and how to write it.  Times are seconds on the
// server's clock; `skew` turns our clock into the server's.

export const WARN = 10;  // seconds: under this much in all, the running clock is drawn as a warning

// [delay, reserve] seconds `seat` has left at server time `at`: the running seat spends its
// delay first, then its reserve; the other seat's clock stands still.
export function remaining(clock, seat, at) {
  const delay = clock.delay_left ? clock.delay_left[seat] : clock.delay;
  const reserve = clock.reserve[seat];
  if (clock.running !== seat || clock.deadline === null || clock.deadline === undefined) return [delay, reserve];
  const spent = Math.max(0, at - clock.now);
  return [Math.max(0, delay - spent), Math.max(0, reserve - Math.max(0, spent - delay))];
}

// "m:ss" (or "h:mm:ss" past an hour), whole seconds rounded up: a clock shows 0:00 only at the end.
export function fmt(seconds) {
  const s = Math.max(0, Math.ceil(seconds - 1e-9));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const ss = String(r).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

// A turn-based clock's time: "2d 23h" (days and hours) or, under a day, "5h 12m", whole minutes
// rounded up; `t` gives the words of the reader's language (left_days, left_hours).
export function fmtDays(seconds, t) {
  const m = Math.max(0, Math.ceil(seconds / 60 - 1e-9));
  const d = Math.floor(m / 1440), h = Math.floor((m % 1440) / 60);
  return d ? t("left_days", { d, h }) : t("left_hours", { h, m: m % 60 });
}

// Whether `seat`'s clock warns: it runs, on a table where time can run out, with under WARN s left.
export function warning(clock, seat, at) {
  if (clock.running !== seat || clock.claim_only || clock.deadline === null || clock.deadline === undefined) return false;
  const [d, r] = remaining(clock, seat, at);
  return d + r < WARN;
}

// How far the server's clock is ahead of ours, from its stamp `serverNow` (seconds) on a message
// we received at `local` (ms since the epoch, our clock).
export function skew(serverNow, local) {
  return typeof serverNow === "number" ? serverNow - local / 1000 : 0;
}
