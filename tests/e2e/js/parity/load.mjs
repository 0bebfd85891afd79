// Shared by the bot's parity tests: the fixture, the exported weights, Python's bear-off database.
import { readFileSync } from "node:fs";
import { loadWeights } from "../../../../src/table/web/js/engine/nn.js";
import { MAX_ROLLS, N_POSITIONS, REP_WIDTH } from "../../../../src/table/web/js/engine/bearoff.js";

const WEB = new URL("../../../../src/table/web/bot/", import.meta.url);

export const fixture = JSON.parse(readFileSync(process.env.PARITY_FIXTURE, "utf8"));

// The exported networks `file` (table: the standard ones; a variant's own are named after it).
export function weights(options = {}, file = "table") {
  const header = JSON.parse(readFileSync(new URL(`${file}.json`, WEB), "utf8"));
  const bin = readFileSync(new URL(`${file}.bin`, WEB));
  return loadWeights(header, bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength), options);
}

// The database Python built, its three layers, as {finish, first, rep} (the browser's layout).
export function pythonBearoff() {
  const bin = readFileSync(fixture.bearoff);
  const all = new Float32Array(bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength));
  const layer = N_POSITIONS * MAX_ROLLS;
  if (all.length !== 3 * layer) throw new Error(`the fixture's database has ${all.length} numbers, not 3 layers`);
  const rep = new Uint8Array(N_POSITIONS * REP_WIDTH);
  for (let i = 0; i < N_POSITIONS; i++) {
    for (let k = 0; k < REP_WIDTH; k++) rep[i * REP_WIDTH + k] = all[2 * layer + i * MAX_ROLLS + k];
  }
  return { finish: all.subarray(0, layer), first: all.subarray(layer, 2 * layer), rep };
}
