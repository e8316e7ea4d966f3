#!/usr/bin/env bash
# Cross-checks the dense spectrum path on a random sample of connected graphs on N vertices:
# every graph of a few geng shards r/M (r drawn with a fixed seed) is kept with probability P,
# and each kept graph is solved twice, by the dense path and by the level solver
# (`grundy spectrum --input SAMPLE --cross-check`, exit 1 at the first disagreement).
#   N=11 M=100000 SHARDS=12 P=0.01 SEED=2026 BIN=target/release/grundy OUT=/tmp/sample-N.g6
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${N:-11}
M=${M:-100000}
SHARDS=${SHARDS:-12}
P=${P:-0.01}
SEED=${SEED:-2026}
BIN=${BIN:-target/release/grundy}
OUT=${OUT:-/tmp/sample-$N.g6}
[ -x "$BIN" ] || cargo build --release
: >"$OUT"
for r in $(awk -v s="$SEED" -v k="$SHARDS" -v m="$M" 'BEGIN { srand(s); for (i = 0; i < k; i++) print int(rand() * m) }'); do
  nauty-geng -c -q "$N" "$r/$M" | awk -v s="$SEED$r" -v p="$P" 'BEGIN { srand(s) } rand() < p' >>"$OUT"
done
echo "$(wc -l <"$OUT") graphs sampled into $OUT"
"$BIN" spectrum --input "$OUT" --cross-check
