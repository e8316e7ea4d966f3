// What a reader sees of the report's typeset text, and the ASCII operators it must not show.
// `printedText` runs inside the page (Playwright serialises it), so it uses nothing outside
// itself; `rawOperators` is plain JS, unit-tested by typeset.test.mjs.

// The elements that print a statement, a range, a coverage part, a caption or notes.
export const PRINTED = [
  ".statement",
  ".range",
  "td.coverage",
  "table.coverage td",
  "figcaption .caption",
  "caption",
  ".notes",
  "h1",
  "h2",
].join(", ");

// The visible text of every element matching `selectors`: KaTeX's MathML copy (which holds
// the TeX source), literal <code> and the checker's counterexample lines (`.cex`, its output in
// the game language) and spec ids (`.id`) are left out, the typeset glyphs kept.
export function printedText(selectors) {
  return [...document.querySelectorAll(selectors)].map((el) => {
    const copy = el.cloneNode(true);
    copy.querySelectorAll(".katex-mathml, code, annotation, .cex, .id").forEach((n) => n.remove());
    return copy.textContent;
  });
}

// The ASCII operators and ranges (`>=`, `<=`, `..=`, `..<`) a text shows, with their context.
export function rawOperators(text) {
  const found = [];
  const re = /(>=|<=|\.\.=|\.\.<)/g;
  let m;
  while ((m = re.exec(text)) !== null) {
    found.push(text.slice(Math.max(0, m.index - 20), m.index + 20).trim());
  }
  return found;
}

// ASCII math a reader sees (issue 46 item 10): a subscript written `Q_1`, `K_{2}` in text.
export function asciiMath(text) {
  const found = [];
  // A name of one to three letters with a script of one character or a braced group that
  // ends the word; an id (`prop_5_23`, `odd_parts`) has a longer or repeated part.
  const re = /(^|[^A-Za-z0-9_\\])([A-Za-z]{1,3}_(\{[^}]*\}|[A-Za-z0-9]))(?![A-Za-z0-9_])/g;
  let m;
  while ((m = re.exec(text)) !== null) {
    const start = m.index + m[1].length;
    found.push(text.slice(Math.max(0, start - 20), start + 20).trim());
  }
  return found;
}

// The TeX of every typeset formula on the page (KaTeX keeps it in an annotation).
export function mathSources() {
  return [...document.querySelectorAll(".math annotation")].map((a) => a.textContent);
}

// Notation a formula's TeX sets wrong (issue 46 item 10): a vertex name `v1` left
// unsubscripted (an italic v and a roman 1), or `x` between groups where the product × is
// meant (`\mathrm{Cyc}(2) x \mathrm{Sym}(3)`).
export function texFaults(tex) {
  const found = [];
  for (const m of tex.matchAll(/(^|[^\\A-Za-z0-9])([a-z][0-9]+)(?![0-9A-Za-z_])/g)) found.push(`unsubscripted ${m[2]} in ${tex}`);
  for (const m of tex.matchAll(/[)}]\s+x\s+[\\A-Z]/g)) found.push(`x for a product in ${tex}`);
  return found;
}

// A page that leaves `>=` in a statement: the check must flag its first statement only (the
// second has `>=` only in KaTeX's hidden MathML, the third only in code).
export const WRONG_PAGE =
  '<!DOCTYPE html><html><body>' +
  '<div class="statement">nim is 0 for n &gt;= 4</div>' +
  '<div class="statement"><span class="katex"><span class="katex-mathml">n &gt;= 4</span>' +
  '<span class="katex-html">n≥4</span></span></div>' +
  '<p class="notes">run <code>n: 4..=30</code> by hand</p>' +
  "</body></html>";
