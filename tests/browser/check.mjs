// Browser test of the report site (output/index.html and output/site/**.html): headless
// Chromium loads every page from file:// and the test fails on a console error, an uncaught
// exception, a failed request, a broken link or image, a status or a verifier's mark that
// disagrees with report.json, statements left untypeset, a page wider than the 1280px window,
// ASCII math (`Q_1`) in printed text or an unsubscripted `v1` or an `x` for × in a formula's TeX,
// or a raw ASCII `>=`, `<=`, `..=`, `..<` in the
// visible text of a statement, range, coverage part, caption or notes (typeset.mjs; the check
// is first shown to catch a page that has one); it also screenshots index.html and fails if
// the screenshot is blank.
//
// Usage: node tests/browser/check.mjs [output-dir] [screenshot.png]
// Chromium: $CHROMIUM or /usr/bin/chromium (Debian's package).

import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { PRINTED, printedText, rawOperators, WRONG_PAGE, asciiMath, mathSources, texFaults } from "./typeset.mjs";

const out = path.resolve(process.argv[2] ?? "output");
const shot = path.resolve(process.argv[3] ?? "target/browser/index.png");
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";

const failures = [];
const fail = (page, what) => failures.push(`${path.relative(out, page)}: ${what}`);

function htmlPages(dir) {
  const found = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) found.push(...htmlPages(p));
    else if (e.name.endsWith(".html")) found.push(p);
  }
  return found;
}

const index = path.join(out, "index.html");
if (!fs.existsSync(index)) {
  console.error(`no ${index}: run grundy build first`);
  process.exit(2);
}
const pages = [index, ...htmlPages(path.join(out, "site")).sort()];
const report = JSON.parse(fs.readFileSync(path.join(out, "report.json"), "utf8"));
const reports = new Map(report.reports.map((r) => [r.id, r]));

// Which statuses a report allows (the page decides the badge; the report is the truth).
function statusAgrees(status, r) {
  const holds = r.verdict === "holds";
  switch (status) {
    case "unexpected":
      return !r.as_expected;
    case "erratum":
    case "reading":
      return r.as_expected && !holds && r.expect === "refuted";
    case "unchecked":
      return r.as_expected && holds && r.instances === 0;
    case "holds":
    case "reconstructed":
    case "computed":
      return r.as_expected && holds && r.instances > 0;
    default:
      return false;
  }
}

// The class of grundy-verify's verdict line (report.json's `verified`), as the site marks it
// (crate::pipeline::VerifierVerdicts::class): a row marked re-derived must be fully re-derived.
function verifiedClass(line) {
  if (line === undefined || line === null) return "not-run";
  const m = /^verified \(claim re-derived\): (\d+) of (\d+) /.exec(line);
  if (m) return m[1] === m[2] ? "verified" : "partly-verified";
  if (line.startsWith("verified (claim re-derived): ")) return "partly-verified";
  if (line.startsWith("evidence checked")) return "evidence";
  if (line.startsWith("refuted (re-derived)")) return "refuted";
  if (line.startsWith("REJECTED")) return "rejected";
  return "not-certified";
}

function checkRow(page, row) {
  const r = reports.get(row.id);
  if (!r) return fail(page, `result ${row.id} is not in report.json`);
  if (row.verdict !== r.verdict) fail(page, `${row.id}: page says ${row.verdict}, report.json ${r.verdict}`);
  if (row.expect !== r.expect) fail(page, `${row.id}: page expects ${row.expect}, report.json ${r.expect}`);
  if (row.asExpected !== String(r.as_expected))
    fail(page, `${row.id}: as_expected ${row.asExpected} vs report.json ${r.as_expected}`);
  if (!statusAgrees(row.status, r)) fail(page, `${row.id}: status ${row.status} disagrees with report.json`);
  if (row.verified !== verifiedClass(r.verified))
    fail(page, `${row.id}: marked ${row.verified}, report.json's verifier verdict is ${verifiedClass(r.verified)}`);
  if (row.status === "verified") fail(page, `${row.id}: the checker's badge claims the verifier's word "verified"`);
}

// A link target: the file must exist, and a #fragment must be an id in it.
const fileText = new Map();
function checkLink(page, href) {
  let url;
  try {
    url = new URL(href);
  } catch {
    return fail(page, `unparsable link ${href}`);
  }
  if (url.protocol !== "file:") return fail(page, `link leaves the site (offline report): ${href}`);
  const file = fileURLToPath(url);
  if (!fs.existsSync(file)) return fail(page, `broken link ${href}`);
  const frag = decodeURIComponent(url.hash.slice(1));
  if (frag && file.endsWith(".html")) {
    if (!fileText.has(file)) fileText.set(file, fs.readFileSync(file, "utf8"));
    if (!fileText.get(file).includes(`id="${frag}"`)) fail(page, `broken anchor ${href}`);
  }
}

const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--allow-file-access-from-files",
  ],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });

// The wrong variant first: a page with a raw `>=` in a statement must be caught, and only there.
{
  const page = await context.newPage();
  await page.setContent(WRONG_PAGE);
  const texts = await page.evaluate(printedText, PRINTED);
  const caught = texts.filter((t) => rawOperators(t).length > 0);
  if (caught.length !== 1 || !caught[0].includes("n >= 4"))
    failures.push(`the raw-operator check does not catch the wrong page exactly once: ${JSON.stringify(caught)}`);
  await page.close();
}
// The wrong variants of the layout and notation checks: a page wider than the window, text
// with `Q_1` and a formula with an unsubscripted `v1` are caught.
{
  const page = await context.newPage();
  await page.setContent(
    '<!DOCTYPE html><html><body><table><tr><td style="white-space:nowrap">' + "wide ".repeat(400) +
      '</td></tr></table><div class="statement">(Q_1 = K_2 has 1)</div></body></html>',
  );
  const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  const ascii = (await page.evaluate(printedText, PRINTED)).flatMap(asciiMath);
  if (!wide) failures.push("the horizontal-scroll check does not catch a page 2000px wide");
  if (ascii.length !== 2) failures.push(`the ASCII-math check does not catch Q_1 and K_2: ${JSON.stringify(ascii)}`);
  if (texFaults("\\mathrm{DNT}_{v1}(W_7)").length !== 1) failures.push("the TeX check does not catch v1");
  await page.close();
}
let printed = 0;
let tables51 = 0;
let rows = 0;
let typeset = 0;
for (const file of pages) {
  const page = await context.newPage();
  page.on("console", (m) => {
    if (m.type() === "error") fail(file, `console error: ${m.text()}`);
  });
  page.on("pageerror", (e) => fail(file, `uncaught: ${e.message}`));
  page.on("requestfailed", (q) => fail(file, `failed to load ${q.url()}: ${q.failure()?.errorText}`));
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  const facts = await page.evaluate(() => {
    const links = [...document.querySelectorAll("a[href]")].map((a) => a.href);
    const images = [...document.querySelectorAll("img")].map((i) => ({
      src: i.src,
      ok: i.complete && i.naturalWidth > 0,
    }));
    const objects = [...document.querySelectorAll("object")].map((o) => {
      const doc = o.contentDocument;
      const svgLinks = doc
        ? [...doc.querySelectorAll("a")].map((a) => {
            const h = a.getAttribute("href") ?? a.getAttributeNS("http://www.w3.org/1999/xlink", "href");
            return h ? new URL(h, o.data).href : null;
          })
        : [];
      return { data: o.data, ok: !!(doc && doc.documentElement && doc.documentElement.nodeName === "svg"), svgLinks };
    });
    const rows = [...document.querySelectorAll("[data-status]")].map((e) => ({
      id: e.dataset.id ?? null,
      status: e.dataset.status,
      verdict: e.dataset.verdict,
      expect: e.dataset.expect,
      asExpected: e.dataset.asExpected,
      verified: e.dataset.verified,
    }));
    const math = document.querySelectorAll(".math").length;
    const rendered = document.querySelectorAll(".math .katex").length;
    const errors = document.querySelectorAll(".math .katex-error").length;
    return { links, images, objects, rows, math, rendered, errors, text: document.body.innerText.length };
  });
  for (const t of await page.evaluate(printedText, PRINTED)) {
    printed++;
    for (const raw of rawOperators(t)) fail(file, `raw ASCII operator in printed text: "${raw}"`);
    for (const a of asciiMath(t)) fail(file, `ASCII math in printed text: "${a}"`);
  }
  for (const tex of await page.evaluate(mathSources)) for (const f of texFaults(tex)) fail(file, f);
  // No page scrolls sideways in a 1280px window (the index's last columns were cut off).
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (widths[0] > widths[1]) fail(file, `scrolls horizontally: ${widths[0]}px wide in a ${widths[1]}px window`);
  for (const l of facts.links) checkLink(file, l);
  for (const i of facts.images) if (!i.ok) fail(file, `broken image ${i.src}`);
  for (const o of facts.objects) {
    if (!o.ok) fail(file, `object did not load as SVG: ${o.data}`);
    for (const l of o.svgLinks) if (l) checkLink(file, l);
  }
  if (facts.math !== facts.rendered) fail(file, `${facts.math - facts.rendered} of ${facts.math} statements not typeset`);
  if (facts.errors) fail(file, `${facts.errors} KaTeX errors`);
  if (facts.text < 50) fail(file, "page is (nearly) empty");
  if (file === index) {
    for (const row of facts.rows) checkRow(file, row);
    rows = facts.rows.length;
    if (rows !== report.reports.length) fail(file, `${rows} results listed, report.json has ${report.reports.length}`);
    const ids = new Set(facts.rows.map((r) => r.id));
    for (const id of reports.keys()) if (!ids.has(id)) fail(file, `result ${id} of report.json is not listed`);
    // Anchors by paper number, and the search box filtering rows as you type.
    for (const a of ["thm-5.43", "fig-5.2", "table-5.1", "prop-5.23", "ex-4.11"])
      if (!(await page.$(`[id="${a}"]`))) fail(file, `no anchor #${a}`);
    await page.fill("#search", "5.43");
    const found = await page.evaluate(() =>
      [...document.querySelectorAll("table.results tbody tr")].filter((r) => !r.hidden).map((r) => r.dataset.search),
    );
    if (found.length === 0 || found.length >= rows) fail(file, `search "5.43" shows ${found.length} of ${rows} rows`);
    for (const t of found) if (!t.includes("5.43")) fail(file, `search "5.43" shows a row without it: ${t.slice(0, 60)}`);
    await page.fill("#search", "");
    const all = await page.evaluate(() => [...document.querySelectorAll("table.results tbody tr")].filter((r) => !r.hidden).length);
    if (all !== rows) fail(file, `an empty search shows ${all} of ${rows} rows`);
    fs.mkdirSync(path.dirname(shot), { recursive: true });
    await page.screenshot({ path: shot });
  } else if (file.includes(`${path.sep}site${path.sep}`) && facts.rows.length === 1) {
    const id = path.basename(file, ".html");
    checkRow(file, { ...facts.rows[0], id });
  }
  // Table 5.1's page shows the table itself, one body row per row of the paper's table (the
  // rows its report's coverage lists).
  if (file.endsWith(`${path.sep}table_5_1.html`)) {
    const want = (reports.get("table_5_1")?.coverage ?? []).filter((c) => c.part.startsWith("row ")).length;
    const got = await page.evaluate(() =>
      [...document.querySelectorAll("table.data")].map((t) => t.querySelectorAll("tbody tr").length),
    );
    if (want === 0 || !got.includes(want)) fail(file, `Table 5.1 has no table of ${want} rows (tables: ${JSON.stringify(got)})`);
    tables51 = got.length;
  }
  typeset += facts.rendered;
  await page.close();
}

// The screenshot is not blank: enough pixels differ from the background.
const check = await context.newPage();
const png = fs.readFileSync(shot).toString("base64");
const inked = await check.evaluate(async (data) => {
  const img = new Image();
  img.src = `data:image/png;base64,${data}`;
  await img.decode();
  const c = document.createElement("canvas");
  c.width = img.width;
  c.height = img.height;
  const g = c.getContext("2d");
  g.drawImage(img, 0, 0);
  const px = g.getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < px.length; i += 4) if (px[i] < 200 || px[i + 1] < 200 || px[i + 2] < 200) n++;
  return n / (px.length / 4);
}, png);
if (tables51 === 0) failures.push("no page site/paper000/table_5_1.html with Table 5.1 checked");
if (inked < 0.01) failures.push(`index.html screenshot is blank (${(inked * 100).toFixed(2)}% inked)`);
await browser.close();

console.log(
  `browser test: ${pages.length} pages, ${rows} results on index.html, ${typeset} statements typeset, ` +
    `${printed} printed texts free of raw operators, ` +
    `screenshot ${path.relative(process.cwd(), shot)} ${(inked * 100).toFixed(1)}% inked`,
);
if (failures.length) {
  const shown = process.env.GRUNDY_ALL_FAILURES ? failures.length : 50;
  for (const f of failures.slice(0, shown)) console.error(`FAIL ${f}`);
  if (failures.length > shown) console.error(`… and ${failures.length - 50} more`);
  process.exit(1);
}
