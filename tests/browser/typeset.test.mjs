// Unit test of the raw-operator check of check.mjs (node --test tests/browser/typeset.test.mjs).
import test from "node:test";
import assert from "node:assert/strict";
import { rawOperators, asciiMath, texFaults } from "./typeset.mjs";

test("raw ASCII operators and ranges are found", () => {
  assert.equal(rawOperators("nim(TER(C_n)) = 0 for n >= 4").length, 1);
  assert.equal(rawOperators("2 <= d and n in 2..=12 or a..<b").length, 3);
});

test("typeset text passes", () => {
  assert.deepEqual(rawOperators("nim(TER(C_n)) = 0 for n ≥ 4, n ∈ {2,…,12}, 2 ≤ d"), []);
  assert.deepEqual(rawOperators("a => b, x -> y, 0..n"), []);
});

test("ASCII subscripts in text are found, ids are not", () => {
  assert.equal(asciiMath("For n ≥ 2 (Q_1 = K₂ has 1).").length, 1);
  assert.equal(asciiMath("the signatures of K_{2,3}").length, 1);
  assert.deepEqual(asciiMath("prop_5_23_least and thm_5_43_case4_odd_diagram"), []);
  assert.deepEqual(asciiMath("Q₁ = K₂, n ∈ {2,…,12}"), []);
});

test("unsubscripted vertex names and x for × in TeX are found", () => {
  assert.equal(texFaults("\\mathrm{DNT}_{v1}(W_7)").length, 1);
  assert.equal(texFaults("\\mathrm{GEN}(\\mathrm{Cyc}(m) x \\mathrm{Dih}(n))").length, 1);
  assert.deepEqual(texFaults("\\mathrm{DNT}_{\\{v_{1}\\}}(W_7) \\times x + 1"), []);
  assert.deepEqual(texFaults("\\mathrm{nim}(\\mathrm{TER}(C_{12})) = 0"), []);
});
