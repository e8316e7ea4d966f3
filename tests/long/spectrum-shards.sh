#!/usr/bin/env bash
# The nim-value spectrum of every connected graph on N vertices (seed 000 §6 question 3) in
# resumable shards: runs the shards i/K not yet in DIR (each written atomically as
# DIR/shard-III-of-K.json), then merges the ones that are done into DIR/merged.json
# (`--partial` until all K are present; a complete merge checks the count against OEIS A001349).
# Stop it at any time; run it again to go on. Environment:
#   N=11 K=100 DIR=output/scale/spectrum_$N BIN=target/release/grundy
#   MAX_SECONDS=...   start no new shard after this many seconds
#   NICE=10           scheduling niceness of the shards
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${N:-11}
K=${K:-100}
DIR=${DIR:-output/scale/spectrum_$N}
BIN=${BIN:-target/release/grundy}
NICE=${NICE:-10}
[ -x "$BIN" ] || cargo build --release
mkdir -p "$DIR"
for ((i = 0; i < K; i++)); do
  f=$(printf '%s/shard-%03d-of-%d.json' "$DIR" "$i" "$K")
  [ -s "$f" ] && continue
  if [ -n "${MAX_SECONDS:-}" ] && [ "$SECONDS" -ge "$MAX_SECONDS" ]; then
    echo "time budget reached; run again to go on"
    break
  fi
  nice -n "$NICE" "$BIN" spectrum --vertices "$N" --shard "$i/$K" --json >"$f.tmp"
  mv "$f.tmp" "$f"
  echo "shard $i/$K: $(grep -o '"graphs":[0-9]*' "$f")"
done
shopt -s nullglob
files=("$DIR"/shard-*-of-"$K".json)
[ "${#files[@]}" -gt 0 ] || { echo "no shards done"; exit 0; }
# --unchecked: the 11-vertex shards were recorded before shards carried checks.
"$BIN" spectrum merge --partial --unchecked --json "${files[@]}" >"$DIR/merged.json.tmp"
mv "$DIR/merged.json.tmp" "$DIR/merged.json"
"$BIN" spectrum merge --partial --unchecked --recheck 0 "${files[@]}" | head -n 1
