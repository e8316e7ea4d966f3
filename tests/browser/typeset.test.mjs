// Unit test of the raw-operator check of check.mjs (node --test tests/browser/typeset.test.mjs).
import test from "node:test";
import assert from "node:assert/strict";
import { rawOperators } from "./typeset.mjs";

test("raw ASCII operators and ranges are found", () => {
  assert.equal(rawOperators("nim(TER(C_n)) = 0 for n >= 4").length, 1);
  assert.equal(rawOperators("2 <= d and n in 2..=12 or a..<b").length, 3);
});

test("typeset text passes", () => {
  assert.deepEqual(rawOperators("nim(TER(C_n)) = 0 for n ≥ 4, n ∈ {2,…,12}, 2 ≤ d"), []);
  assert.deepEqual(rawOperators("a => b, x -> y, 0..n"), []);
});
