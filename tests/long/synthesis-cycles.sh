#!/usr/bin/env bash
# Conjecture 5.5 (TER(C_n), n odd: the second player wins) by `grundy synthesize` (paper §6,
# question 5): for every odd n and every feature set over the gap structure of the selected
# vertices, synthesize a diagram, check it with the ordinary checker, and record its size, the
# time and the peak memory (GNU time). Writes OUT/conjecture_5_5_synthesis.yaml.
#
#   bash tests/long/synthesis-cycles.sh output/scale            # n = 5..=21 (about 40 min)
#   MAX_N=17 bash tests/long/synthesis-cycles.sh /tmp/out       # a quicker subset
#
# Needs /usr/bin/time (Debian package `time`) and a release build (`cargo build --release`).
set -euo pipefail
out=$(realpath -m "${1:?usage: synthesis-cycles.sh OUTDIR}")
max_n=${MAX_N:-21}
cd "$(dirname "$0")/../.."
grundy=${GRUNDY:-target/release/grundy}
[ -x "$grundy" ] || { echo "build first: cargo build --release" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Feature sets: name and features. `terminating` separates the terminal sinks.
sets=(
  "all|size, gaps, max_gap, min_gap, gaps1, gaps2, gaps3, odd_gaps, even_gaps, terminating"
  "gaps|gaps, max_gap, min_gap, odd_gaps, even_gaps, terminating"
  "parity|size, gaps, odd_gaps, even_gaps, terminating"
  "odd|odd_gaps, terminating"
)
# At the largest n only these sets (each takes minutes there); SETS_AT_MAX="all gaps parity odd"
# tries every set.
sets_at_max=${SETS_AT_MAX:-parity odd}
res="$work/results.yaml"
{
  echo "# Conjecture 5.5 (paper §5.1; §6 questions 1 and 5): case analysis diagrams for TER(C_n), n odd,"
  echo "# found by \`grundy synthesize\` from the start position alone, quotiented by features of the gap"
  echo "# structure (the maximal runs of unselected vertices), and each checked by the ordinary diagram"
  echo "# checker (\`check: holds\` = the written spec is a valid second-player strategy, cross-checked"
  echo "# by the solver at every position it meets). nodes/arrows: the diagram written; positions: the"
  echo "# positions the synthesized strategy meets; classes: feature classes before merging; seconds"
  echo "# and peak_mib: the whole command (synthesis, checks, rendering) under GNU time, 2 cores shared"
  echo "# with other jobs. A diagram whose size stayed bounded as n grows would be a candidate proof of"
  echo "# the conjecture for all odd n, but only if its nodes are separated (unseparated_nodes: 0):"
  echo "# a node whose predicate also holds for members of another node (a P-node and an N-node with"
  echo "# the same predicate) is a valid strategy for that n, checked on the positions it meets, but"
  echo "# its predicates do not say which node a position is at, so it proves nothing for other n."
  echo "claim: \"Conjecture 5.5\""
  echo "machine: \"2-core, 24 GB (shared)\""
  echo "command: \"bash tests/long/synthesis-cycles.sh output/scale\""
  echo "feature_sets:"
  for s in "${sets[@]}"; do echo "  ${s%%|*}: \"${s#*|}\""; done
  echo "results:"
} > "$res"
for ((n = 5; n <= max_n; n += 2)); do
  for s in "${sets[@]}"; do
    name=${s%%|*} feats=${s#*|}
    if [ "$n" -eq "$max_n" ] && [[ " $sets_at_max " != *" $name "* ]]; then continue; fi
    spec="$work/ter_c${n}_${name}.yaml"
    log="$work/log"
    set +e
    /usr/bin/time -f "TIME %e %M" nice -n 10 "$grundy" synthesize --game 'TER(C_n)' \
      --param "n=$n" --features "$feats" --output "$spec" --max-positions 20000000 >"$log" 2>&1
    code=$?
    set -e
    read -r secs kib < <(awk '/^TIME /{print $2, $3}' "$log")
    head=$(grep -m1 '^synthesized ' "$log" || true)
    nodes=$(sed -E 's/.*: ([0-9]+) nodes.*/\1/' <<<"$head")
    arrows=$(sed -E 's/.* ([0-9]+) arrows.*/\1/' <<<"$head")
    positions=$(sed -E 's/.* ([0-9]+) positions met.*/\1/' <<<"$head")
    classes=$(sed -E 's/.* ([0-9]+) classes before.*/\1/' <<<"$head")
    pnodes=$(grep -cE '^  P[0-9]+ +P-node' "$log" || true)
    # Nodes whose predicate also holds for a member of another node: the diagram is then a
    # valid strategy for this n only, not a quotient its predicates describe.
    unsep=$(grep -cE '^  [PN][0-9]+ .*NOT separated' "$log" || true)
    verdict=$(grep -m1 '^check ' "$log" | sed -E 's/^check [^:]*: ([a-zA-Z ]+).*/\1/' | sed 's/ *$//' || true)
    {
      echo "  - n: $n"
      echo "    features: $name"
      echo "    exit: $code"
      echo "    nodes: ${nodes:-null}"
      echo "    p_nodes: ${pnodes:-null}"
      echo "    arrows: ${arrows:-null}"
      echo "    positions: ${positions:-null}"
      echo "    classes: ${classes:-null}"
      echo "    unseparated_nodes: ${unsep:-null}"
      echo "    check: \"${verdict:-none}\""
      echo "    seconds: ${secs:-null}"
      echo "    peak_mib: $(awk -v k="${kib:-0}" 'BEGIN{printf "%.0f", k/1024}')"
    } >> "$res"
    echo "n=$n $name: exit $code, ${nodes:-?} nodes, ${arrows:-?} arrows, ${positions:-?} positions, ${secs:-?} s, $((${kib:-0} / 1024)) MiB" >&2
  done
done
mv "$res" "$out/conjecture_5_5_synthesis.yaml"
echo "wrote $out/conjecture_5_5_synthesis.yaml" >&2
