#!/usr/bin/env bash
# Seed 000 §6, question 2, as data: the spectrum of TER and DNT under the geodetic closure for
# every connected graph on N vertices, N = 1..MAX (default 10), beside the hull's. Each N is one
# `grundy spectrum --vertices N --closure geodetic --json` run, written to
# output/scale/spectrum_geodetic/N.json; an N already written is skipped (resumable). Sizes up
# to CROSS (default 7) are also solved by the level solver under I (--cross-check). Then the
# summary table of docs/results/geodetic_closure.md is printed.
set -euo pipefail
cd "$(dirname "$0")/../.."
MAX=${MAX:-10}
CROSS=${CROSS:-7}
BIN=${BIN:-target/release/grundy}
[ -x "$BIN" ] || cargo build --release
dir=output/scale/spectrum_geodetic
mkdir -p "$dir"
for ((n = 1; n <= MAX; n++)); do
  [ -s "$dir/$n.json" ] && continue
  flags=(--vertices "$n" --closure geodetic --json)
  [ "$n" -le "$CROSS" ] && flags+=(--cross-check)
  "$BIN" spectrum "${flags[@]}" >"$dir/$n.json.tmp"
  mv "$dir/$n.json.tmp" "$dir/$n.json"
  echo "N = $n done" >&2
done
python3 tests/long/spectrum-geodetic-summary.py "$dir"
