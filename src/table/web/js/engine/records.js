// An offline match written as a .mat record (table.match.records.match_to_mat and
// table.notation.mat.format_mat are the reference), for GNU Backgammon and other programs.

import { namedPlays } from "./graph.js";

const LEFT_WIDTH = 28, SCORE_WIDTH = 31;

const entryText = (e) => ({
  roll: () => `${e.dice[0]}${e.dice[1]}: ${e.move}`.trimEnd(),
  double: () => ` Doubles => ${e.value}`,
  take: () => " Takes",
  drop: () => " Drops",
  win: () => ` Wins ${e.value} point${e.value !== 1 ? "s" : ""}`,
}[e.kind]());

function gameLines(number, score, entries, players) {
  const left = `${players[0]} : ${score[0]}`;
  const lines = [` Game ${number}`,
    left.length >= SCORE_WIDTH ? ` ${left} ${players[1]} : ${score[1]}` : ` ${left.padEnd(SCORE_WIDTH)}${players[1]} : ${score[1]}`];
  let n = 0, row = [];
  const flush = () => {
    if (row.length) {
      const leftText = row[0] || "", rightText = row.length > 1 && row[1] ? row[1] : "";
      let pad = leftText.padEnd(LEFT_WIDTH);
      if (leftText.length >= LEFT_WIDTH && rightText && !rightText.startsWith(" ")) pad += " ";
      lines.push(`${String(n).padStart(3)}) ${pad}${rightText}`.trimEnd());
    }
    row = [];
  };
  for (const e of entries) {
    if (e.kind === "win") {
      flush();
      lines.push(" ".repeat(5) + (e.player === 0 ? entryText(e) : " ".repeat(LEFT_WIDTH) + entryText(e)));
      continue;
    }
    if (e.player === 0 || !row.length || row.length > 1) { flush(); n += 1; row = [null]; }
    if (e.player === 0) row[0] = entryText(e); else row.push(entryText(e));
  }
  flush();
  return lines;
}

// The .mat text of a LocalGame (its history of [before, logged, after]); a variant .mat cannot
// name (no matName) is refused, as table.match.records refuses it.
export function toMat(game, players = ["Player 1", "Player 2"]) {
  if (!game.state.variant.matName) throw new Error(`.mat cannot hold a match of ${game.state.variant.title}`);
  const games = [{ first: game.history.length ? game.history[0][0] : game.state, entries: [] }];
  for (const [before, action, after] of game.history) {
    if (action.type === "next_game") { games.push({ first: after, entries: [] }); continue; }
    const cur = games[games.length - 1].entries;
    const player = before.onRoll;
    if (action.type === "move") {
      const play = action.play ? namedPlays(before.board, before.dice[0], before.dice[1]).find((p) => p.text === action.play) : null;
      const move = play ? play.steps.map(([a, b], i) => `${a}/${b}${play.hits[i] ? "*" : ""}`).join(" ") : "";
      cur.push({ player, kind: "roll", dice: before.dice, move });
    } else if (action.type === "double") cur.push({ player, kind: "double", value: before.cubeValue * 2 });
    else if (action.type === "take") cur.push({ player: 1 - player, kind: "take" });
    else if (action.type === "drop") cur.push({ player: 1 - player, kind: "drop" });
    else if (action.type === "accept_resignation" && before.resumePhase === "move") cur.push({ player, kind: "roll", dice: before.dice, move: "" });
    if (after.result && !before.result) cur.push({ player: after.result.winner, kind: "win", value: after.result.points });
  }
  const s = game.state;
  const headers = [["Site", "Table"], ["Player 1", players[0]], ["Player 2", players[1]], ["Variation", s.variant.matName],
    ["Crawford", s.length ? "On" : "Off"], ["Jacoby", "Off"]];
  if (!s.cube) headers.push(["CubeLimit", "1"]);
  const out = headers.map(([k, v]) => `; [${k} "${v}"]`);
  out.push("", ` ${s.length} point match`, "");
  for (const g of games) out.push(...gameLines(g.first.gameNumber, g.first.score, g.entries, players), "");
  return out.join("\n");
}

// Table's JSON record of a LocalGame (table.match.Match.to_json's "table-match" format), which holds
// any match, the games .mat cannot (Plakoto, Fevga, Portes, the Tavli match, Race...) included:
// Match.from_json replays it.
// A single game on this device is a money game of one game (length 0), as it is played.
export function toJsonRecord(game, players = ["Player 1", "Player 2"]) {
  const s = game.state;
  return { format: "table-match", version: 1, length: s.length, cube: s.cube, jacoby: false,
    players: players.slice(), variant: s.series ? s.series.name : s.variant.name, setup: null,
    actions: game.log.map(({ seat, ...action }) => action) };
}
