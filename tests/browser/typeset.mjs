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
  "h2",
].join(", ");

// The visible text of every element matching `selectors`: KaTeX's MathML copy (which holds
// the TeX source) and literal <code> are left out, the typeset glyphs kept.
export function printedText(selectors) {
  return [...document.querySelectorAll(selectors)].map((el) => {
    const copy = el.cloneNode(true);
    copy.querySelectorAll(".katex-mathml, code, annotation").forEach((n) => n.remove());
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

// A page that leaves `>=` in a statement: the check must flag its first statement only (the
// second has `>=` only in KaTeX's hidden MathML, the third only in code).
export const WRONG_PAGE =
  '<!DOCTYPE html><html><body>' +
  '<div class="statement">nim is 0 for n &gt;= 4</div>' +
  '<div class="statement"><span class="katex"><span class="katex-mathml">n &gt;= 4</span>' +
  '<span class="katex-html">n≥4</span></span></div>' +
  '<p class="notes">run <code>n: 4..=30</code> by hand</p>' +
  "</body></html>";
