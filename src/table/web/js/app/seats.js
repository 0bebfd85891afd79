// Who is who in a game's state: the reader's seats, names, the side seen from, and the moves the
// reader may make now.
import * as i18n from "../i18n.js";
import { t } from "../i18n.js";
import { app } from "./store.js";

export const mySeats = (msg) => msg.seats || [];
export function viewer(msg) {
  if (msg.config.mode === "local") return 0;
  // Online, each player sees their own side at the bottom; a spectator sees the first seat's.
  if (msg.config.mode === "online") return mySeats(msg).length ? mySeats(msg)[0] : 0;
  return msg.config.seat;
}
// Whether `seat` is the person reading, who is spoken to as "you".
export const isYou = (msg, seat) => msg.config.mode !== "local" && mySeats(msg).includes(seat);
export function playerName(msg, seat) {
  const c = msg.config;
  if (c.names && c.names[seat]) return c.names[seat];
  if (c.mode === "computer" && seat !== c.seat) return t("computer_name", { level: t("level_" + c.level) });
  // "You" only to the player themself; a spectator sees the colour.
  if (c.mode === "computer" && mySeats(msg).includes(seat)) return t("you");
  return t(seat === 0 ? "player_white" : "player_black");
}
// A message about `seat`, in the second person when that is the reader.
export function tn(key, msg, seat, params) {
  return t(isYou(msg, seat) && i18n.has(key + "_you") ? key + "_you" : key, params);
}
export function myMove(msg) {
  const v = msg.view;
  return v.moves && v.to_act !== null && mySeats(msg).includes(v.to_act);
}

// The moves the reader may make now (null when it is not their move), and the dice in the order
// they chose (swapped or not).
export function graph() { return app.msg && myMove(app.msg) ? app.msg.view.moves : null; }
export function diceOrder() {
  const d = app.msg.view.dice;
  return d && app.swapped ? [d[1], d[0]] : d;
}

// The numbering on the board: the viewer's; on one shared device, that of the player to move.
export function numbersFor(msg) {
  const v = msg.view;
  return msg.config.mode === "local" ? (v.turn === null ? 0 : v.turn) : viewer(msg);
}
