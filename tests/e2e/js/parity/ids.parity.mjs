// Match IDs written and read as table.notation.matchid does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { matchId, parseMatchId } from "../../../../src/table/web/js/engine/ids.js";

const fixture = JSON.parse(readFileSync(process.env.PARITY_FIXTURE, "utf8"));

test("Match IDs: the same text, and read back to the same fields", () => {
  for (const row of fixture.matches) {
    assert.equal(matchId(row.info), row.id);
    assert.deepEqual(parseMatchId(row.id), row.info);
  }
});
