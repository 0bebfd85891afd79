// Shared by the bot's parity tests: the fixture, the exported weights, Python's bear-off database.
import { readFileSync } from "node:fs";
import { loadWeights } from "../../../../src/table/web/js/engine/nn.js";
import { MAX_ROLLS, N_POSITIONS } from "../../../../src/table/web/js/engine/bearoff.js";

const WEB = new URL("../../../../src/table/web/bot/", import.meta.url);

export const fixture = JSON.parse(readFileSync(process.env.PARITY_FIXTURE, "utf8"));

export function weights(options = {}) {
  const header = JSON.parse(readFileSync(new URL("table.json", WEB), "utf8"));
  const bin = readFileSync(new URL("table.bin", WEB));
  return loadWeights(header, bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength), options);
}

// The database Python built, as {finish, first} (the browser's layout).
export function pythonBearoff() {
  const bin = readFileSync(fixture.bearoff);
  const all = new Float32Array(bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength));
  const half = N_POSITIONS * MAX_ROLLS;
  return { finish: all.subarray(0, half), first: all.subarray(half) };
}
