#!/usr/bin/env bash
# The main job's time against the first version's (issue: one pipeline in the library, "at most
# 60 % of the wall time"), measured in one run: builds the session-1 commit in a scratch folder,
# then alternates its `build` on its own specs with today's `build` on today's specs, ROUNDS
# times (default 3), each into a scratch output folder. Prints every time and the ratio of the
# means. Run it on an idle machine.
#
#   bash tests/long/build-time.sh            # a few minutes (compiling the old version)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${ROUNDS:-3}
old_commit=7596788
new=target/release/grundy
[ -x "$new" ] || cargo build --release -q
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git archive "$old_commit" | tar -x -C "$work"
(cd "$work" && cargo build --release -q)
seconds() { /usr/bin/time -f "%e" "$@" 2>&1 >/dev/null | tail -1; }
times=()
for r in $(seq "$rounds"); do
  o=$(cd "$work" && seconds target/release/grundy build --output "$work/out-old")
  n=$(seconds "$new" build --output "$work/out-new")
  echo "round $r: first version $o s, today $n s"
  times+=("$o $n")
done
printf '%s\n' "${times[@]}" | awk '{ o += $1; n += $2 } END {
  printf "means: first version %.2f s, today %.2f s, ratio %.3f\n", o / NR, n / NR, n / o }'
