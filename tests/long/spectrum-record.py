#!/usr/bin/env python3
"""Records a complete merged spectrum (`grundy spectrum merge --json`, e.g.
output/scale/spectrum_11/merged.json) as its `vertices: N` entry of
output/scale/spectrum_results.yaml, the file the report's spectrum plot reads.

Refuses a partial merge (`"complete": false`): a recorded size must cover every graph.
Replaces an entry of the same size, keeps the others, in order of N.

Usage: python3 tests/long/spectrum-record.py MERGED.json [RESULTS.yaml]
"""
import json
import re
import sys


def entry(d):
    n = d["vertices"][0] if isinstance(d["vertices"], list) else d["vertices"]
    out = [f"  - vertices: {n}", f"    graphs: {d['graphs']}",
           f"    seconds: {d['seconds']:.3f}   # CPU-summed wall time of the shards"]
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


def main():
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
    import os
    os.replace(results + ".tmp", results)
    print(f"recorded {n} vertices ({d['graphs']} graphs) in {results}")


if __name__ == "__main__":
    main()
