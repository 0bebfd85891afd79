// The match clock's display arithmetic, on clocks shaped as docs/protocol.md sends them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { remaining, fmt, fmtDays, warning, skew } from "../../../src/table/web/js/clock.js";

// Rapid for 3 points: 8 s a decision, 60 s of reserve each; seat 0's decision began at 1000.
const rapid = { preset: "rapid", delay: 8, reserve: [60, 60], delay_left: [8, 8], running: 0,
  deadline: 1068, now: 1000, claim_only: false };

test("the delay runs first, then the reserve", () => {
  assert.deepEqual(remaining(rapid, 0, 1003), [5, 60]);
  assert.deepEqual(remaining(rapid, 0, 1010), [0, 58]);
  assert.deepEqual(remaining(rapid, 0, 1100), [0, 0]);  // past the deadline: never below zero
});

test("a clock sent in the middle of a decision goes on from what was left", () => {
  const mid = { ...rapid, delay_left: [3, 8], reserve: [50, 60], now: 2000 };
  assert.deepEqual(remaining(mid, 0, 2002), [1, 50]);
  assert.deepEqual(remaining(mid, 0, 2013), [0, 40]);
});

test("the seat not on the clock, or a stopped clock, stands still", () => {
  assert.deepEqual(remaining(rapid, 1, 1050), [8, 60]);
  assert.deepEqual(remaining({ ...rapid, running: null, deadline: null }, 0, 1050), [8, 60]);
});

test("times are written m:ss, rounded up", () => {
  assert.equal(fmt(0), "0:00");
  assert.equal(fmt(0.2), "0:01");
  assert.equal(fmt(59.5), "1:00");
  assert.equal(fmt(65), "1:05");
  assert.equal(fmt(3 * 60 * 21), "1:03:00");
  assert.equal(fmt(-3), "0:00");
});

test("a running clock warns under ten seconds in all, never an untimed one", () => {
  assert.equal(warning(rapid, 0, 1000 + 8 + 49), false);  // 11 s left
  assert.equal(warning(rapid, 0, 1000 + 8 + 51), true);   // 9 s left
  assert.equal(warning(rapid, 1, 1000 + 8 + 51), false);  // not running
  const untimed = { ...rapid, preset: "untimed", delay: 600, delay_left: [600, 600], reserve: [0, 0], claim_only: true };
  assert.equal(warning(untimed, 0, 1595), false);
});

test("the server's clock offset comes from its stamp", () => {
  assert.equal(skew(1005, 1000 * 1000), 5);
  assert.equal(skew(undefined, 1000 * 1000), 0);
});

test("a turn-based clock is written in days and hours, then hours and minutes, rounded up", () => {
  const words = (key, p) => (key === "left_days" ? `${p.d}d ${p.h}h` : `${p.h}h ${p.m}m`);
  const DAY = 86400;
  assert.equal(fmtDays(3 * DAY, words), "3d 0h");
  assert.equal(fmtDays(2 * DAY + 23 * 3600 + 1, words), "2d 23h");  // a second over rounds to the next minute
  assert.equal(fmtDays(DAY - 30, words), "1d 0h");  // 23:59:30 rounds up to a whole day
  assert.equal(fmtDays(5 * 3600 + 12 * 60, words), "5h 12m");
  assert.equal(fmtDays(0, words), "0h 0m");
});

test("a turn-based move's days run first, then the bank", () => {
  const DAY = 86400;
  const days3 = { preset: "days3", delay: 3 * DAY, reserve: [3 * DAY, 3 * DAY], delay_left: [3 * DAY, 3 * DAY],
    running: 1, deadline: 6 * DAY, now: 0, claim_only: false };
  assert.deepEqual(remaining(days3, 1, 4 * DAY), [0, 2 * DAY]);  // a day into the bank, weekend or not
  assert.equal(warning(days3, 1, 4 * DAY), false);
});
