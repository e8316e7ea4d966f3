#!/usr/bin/env python3
"""Records a complete merged spectrum (`grundy spectrum merge --json`, e.g.
output/scale/spectrum_11/merged.json) as its `vertices: N` entry of
output/scale/spectrum_results.yaml, the file the report's spectrum plot reads.

Refuses a partial merge (`"complete": false`): a recorded size must cover every graph.
Replaces an entry of the same size, keeps the others, in order of N.

Usage: python3 tests/long/spectrum-record.py MERGED.json [RESULTS.yaml]
       python3 tests/long/spectrum-record.py --summary [RESULTS.yaml]
         prints, for every recorded N, the largest TER and DNT values, how many graphs reach
         them and the first (fewest edges, then graph6), and the share of each game's
         P-positions (value 0), as the Markdown table of docs/results/spectrum_11.md.
"""
import json
import os
import re
import sys


def entry(d):
    n = d["vertices"][0] if isinstance(d["vertices"], list) else d["vertices"]
    out = [f"  - vertices: {n}", f"    graphs: {d['graphs']}",
           f"    seconds: {d['seconds']:.3f}   # the sum of the shards' wall times"]
    for game in ("ter", "dnt"):
        out.append(f"    {game}:")
        for r in d[game]:
            s = r["smallest"]
            out.append(
                f"      - {{value: {r['value']}, count: {r['count']}, "
                f"smallest: '{s['graph6'].replace(chr(39), chr(39) * 2)}', edges: {s['edges']}}}")
    out.append("    joint:   # (nim TER, nim DNT) -> graphs")
    for r in d["joint"]:
        out.append(f"      - {{ter: {r['ter']}, dnt: {r['dnt']}, count: {r['count']}}}")
    return n, "\n".join(out) + "\n"


def summary(results):
    text = open(results).read()
    rows = ["| n | graphs | largest nim(TER): graphs, first | largest nim(DNT): graphs, first "
            "| nim(TER) = 0 | nim(DNT) = 0 |", "|---|---|---|---|---|---|"]
    for b in re.split(r"(?m)^(?=  - vertices: )", text.partition("sizes:\n")[2]):
        m = re.match(r"  - vertices: (\d+)\n    graphs: (\d+)", b)
        if not m:
            continue
        n, graphs = int(m.group(1)), int(m.group(2))
        cells = []
        zero = []
        for game in ("ter", "dnt"):
            part = re.split(r"\n    (?=\S)", b.split(f"    {game}:\n")[1])[0]
            vals = [tuple(r) for r in re.findall(
                r"value: (\d+), count: (\d+), smallest: '((?:[^']|'')*)', edges: (\d+)", part)]
            v, c, g6, e = max(vals, key=lambda r: int(r[0]))
            g6 = g6.replace("''", "'")
            code = f"`` {g6} ``" if "`" in g6 else f"`{g6}`"
            cells.append(f"{v}: {int(c):,}, {code} ({e} edges)")
            z = sum(int(r[1]) for r in vals if r[0] == "0")
            zero.append(f"{100 * z / graphs:.1f} %")
        rows.append(f"| {n} | {graphs:,} | {cells[0]} | {cells[1]} | {zero[0]} | {zero[1]} |")
    print("\n".join(rows))


def main():
    if sys.argv[1] == "--summary":
        summary(sys.argv[2] if len(sys.argv) > 2 else "output/scale/spectrum_results.yaml")
        return
    merged = sys.argv[1]
    results = sys.argv[2] if len(sys.argv) > 2 else "output/scale/spectrum_results.yaml"
    d = json.load(open(merged))
    if not d.get("complete"):
        sys.exit(f"{merged}: a partial merge ({d['graphs']} graphs); run the missing shards first")
    n, new = entry(d)
    text = open(results).read()
    head, sep, body = text.partition("sizes:\n")
    if not sep:
        sys.exit(f"{results}: no `sizes:` list")
    blocks = re.split(r"(?m)^(?=  - vertices: )", body)
    blocks = [b for b in blocks if b.strip()]
    kept = {}
    for b in blocks:
        m = re.match(r"  - vertices: (\d+)", b)
        kept[int(m.group(1))] = b
    kept[n] = new
    with open(results + ".tmp", "w") as f:
        f.write(head + sep + "".join(kept[k] for k in sorted(kept)))
    os.replace(results + ".tmp", results)
    print(f"recorded {n} vertices ({d['graphs']} graphs) in {results}")


if __name__ == "__main__":
    main()
