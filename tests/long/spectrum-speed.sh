#!/usr/bin/env bash
# The dense spectrum path against the version before the 2026-12 rewrite (commit a45275e),
# measured in one run: both binaries alternate ROUNDS times over the same geng shards, and
# the script prints the CPU seconds (user + sys, geng included) of each and their ratio, after
# checking that both give the same distribution. Environment:
#   OLD_BIN=path   skip building the old commit (else it is built in a scratch folder)
#   NEW_BIN=target/release/grundy   ROUNDS=3   SHARDS="10:0/20 11:0/1000"
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-3}
SHARDS=${SHARDS:-"10:0/20 11:0/1000"}
NEW_BIN=${NEW_BIN:-target/release/grundy}
[ -x "$NEW_BIN" ] || cargo build --release
if [ -z "${OLD_BIN:-}" ]; then
  scratch=$(mktemp -d)
  git worktree add -q --detach "$scratch/old" a45275e
  CARGO_TARGET_DIR="$scratch/target" cargo build --release --manifest-path "$scratch/old/Cargo.toml" -q
  OLD_BIN="$scratch/target/release/grundy"
fi
tmp=$(mktemp -d)
cpu() { # prints user+sys seconds of one run; its JSON goes to $2
  /usr/bin/time -f '%U %S' -o "$tmp/t" "$1" spectrum --vertices "${3%%:*}" --shard "${3#*:}" --json >"$2"
  awk '{ print $1 + $2 }' "$tmp/t"
}
for s in $SHARDS; do
  old=0 new=0
  for ((r = 1; r <= ROUNDS; r++)); do
    o=$(cpu "$OLD_BIN" "$tmp/old.json" "$s")
    n=$(cpu "$NEW_BIN" "$tmp/new.json" "$s")
    python3 -c "import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); sys.exit(any(a[k]!=b[k] for k in ('graphs','ter','dnt','joint')))" "$tmp/old.json" "$tmp/new.json" ||
      { echo "n=${s%%:*} shard ${s#*:}: the two versions disagree"; exit 1; }
    echo "n=${s%%:*} shard ${s#*:} round $r: old $o s, new $n s"
    old=$(awk -v a="$old" -v b="$o" 'BEGIN { print a + b }')
    new=$(awk -v a="$new" -v b="$n" 'BEGIN { print a + b }')
  done
  graphs=$(grep -o '"graphs":[0-9]*' "$tmp/new.json" | cut -d: -f2)
  awk -v o="$old" -v n="$new" -v g="$graphs" -v r="$ROUNDS" -v s="$s" 'BEGIN {
    printf "n=%s: %d graphs; old %.0f graphs/CPU-s, new %.0f graphs/CPU-s: %.2fx\n", s, g, g * r / o, g * r / n, o / n }'
done
