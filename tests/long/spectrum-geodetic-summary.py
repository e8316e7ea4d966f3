#!/usr/bin/env python3
"""Prints the summary tables of docs/results/geodetic_closure.md from the recorded runs
output/scale/spectrum_geodetic/N.json (`grundy spectrum --closure geodetic --json`): per N, the
graphs, the largest TER and DNT value under I, and how many graphs change value from the hull,
with the smallest (fewest edges, then graph6) of each game; then the value changes of the
largest N by (hull value -> geodetic value).

Usage: python3 tests/long/spectrum-geodetic-summary.py [DIR]
"""
import json
import os
import sys

d = sys.argv[1] if len(sys.argv) > 1 else "output/scale/spectrum_geodetic"
runs = []
for name in os.listdir(d):
    if name.endswith(".json"):
        with open(os.path.join(d, name)) as f:
            runs.append(json.load(f))
runs.sort(key=lambda r: r["vertices"][0])


def first(rows):
    if not rows:
        return "–"
    best = min(rows, key=lambda r: (r["smallest"]["edges"], r["smallest"]["graph6"]))
    return f"`{best['smallest']['graph6']}` ({best['hull']} → {best['geodetic']})"


print("| N | graphs | max TER under I | max DNT under I | TER differs | first | DNT differs | first |")
print("|---|---|---|---|---|---|---|---|")
for r in runs:
    assert r.get("closure") == "geodetic" and r["complete"], r["source"]
    n = r["vertices"][0]
    ter, dnt = r["ter_vs_hull"], r["dnt_vs_hull"]
    t = sum(x["count"] for x in ter)
    dd = sum(x["count"] for x in dnt)
    print(
        f"| {n} | {r['graphs']:,} | {max(x['value'] for x in r['ter'])} | "
        f"{max(x['value'] for x in r['dnt'])} | {t:,} ({100 * t / r['graphs']:.1f}%) | {first(ter)} | "
        f"{dd:,} ({100 * dd / r['graphs']:.1f}%) | {first(dnt)} |"
    )
last = runs[-1]
print()
print(f"N = {last['vertices'][0]}: value changes (hull → I), graphs, smallest")
for game in ("ter", "dnt"):
    print(f"\n| {game.upper()}: hull → I | graphs | smallest |")
    print("|---|---|---|")
    for x in last[f"{game}_vs_hull"]:
        print(f"| {x['hull']} → {x['geodetic']} | {x['count']:,} | `{x['smallest']['graph6']}` ({x['smallest']['edges']} edges) |")
