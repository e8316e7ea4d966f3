#!/usr/bin/env bash
# `grundy synthesize` against the paper (issue: paper §6, question 5): re-derive the diagrams of
# Lemma 5.37, Lemma 5.41 (C) and Figure 5.8 from the start positions of their specs alone, check
# each with the ordinary checker, and compare node and arrow counts with the reconstructed paper
# diagrams in specs/paper000/diagrams/. Writes OUT/synthesize_paper_diagrams.yaml.
#
#   bash tests/long/synthesis-paper.sh output/scale       # about a minute
set -euo pipefail
out=$(realpath -m "${1:?usage: synthesis-paper.sh OUTDIR}")
cd "$(dirname "$0")/../.."
grundy=${GRUNDY:-target/release/grundy}
[ -x "$grundy" ] || { echo "build first: cargo build --release" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
d=specs/paper000/diagrams
# id | paper spec | features | extra flags
runs=(
  "lemma_5_37|$d/lemma_5_37_diagram.yaml|c, size - c, num_parts, solid|"
  "lemma_5_41_C|$d/lemma_5_41_diagram_C.yaml|c, size - c, num_parts, solid|--zero-sinks"
  "fig_5_8|$d/fig_5_8_nim_sum.yaml|g0_heap, g1_heap|"
)
# Nodes (keys indented by two under `nodes:`), arrows, sinks of a diagram spec.
count() {
  awk '/^nodes:/{f=1;next} /^[a-z]/{f=0} f&&/^  [A-Za-z0-9_]+:/{n++} /\{ *from:/{a++} /^ +sink:/{s++}
       END{printf "%d %d %d\n", n, a, s}' "$1"
}
res="$work/results.yaml"
{
  echo "# grundy synthesize (paper §6, question 5) against the reconstructed paper diagrams: each"
  echo "# diagram re-derived from the \`starts:\` of its spec and a feature list alone, written as a spec"
  echo "# and checked by the ordinary checker (check: holds). Sinks count among the nodes."
  echo "machine: \"2-core, 24 GB (shared)\""
  echo "command: \"bash tests/long/synthesis-paper.sh output/scale\""
  echo "results:"
} >"$res"
for r in "${runs[@]}"; do
  IFS='|' read -r id spec feats flags <<<"$r"
  syn="$work/${id}_synth.yaml"
  log="$work/log"
  set +e
  # shellcheck disable=SC2086
  /usr/bin/time -f "TIME %e %M" "$grundy" synthesize --starts-from "$spec" --features "$feats" \
    $flags --source "$(awk -F': *' '/^source:/{print $2; exit}' "$spec")" --output "$syn" >"$log" 2>&1
  code=$?
  set -e
  read -r secs kib < <(awk '/^TIME /{print $2, $3}' "$log")
  verdict=$(grep -m1 '^check ' "$log" | sed -E 's/^check [^:]*: ([a-zA-Z ]+).*/\1/' | sed 's/ *$//' || true)
  read -r pn pa ps < <(count "$spec")
  if [ -f "$syn" ]; then read -r sn sa ss < <(count "$syn"); else sn=null sa=null ss=null; fi
  {
    echo "  - diagram: $id"
    echo "    paper_spec: $spec"
    echo "    features: \"$feats\""
    echo "    flags: \"$flags\""
    echo "    paper: {nodes: $pn, arrows: $pa, sinks: $ps}"
    echo "    synthesized: {nodes: $sn, arrows: $sa, sinks: $ss}"
    echo "    exit: $code"
    echo "    check: \"${verdict:-none}\""
    echo "    seconds: ${secs:-null}"
    echo "    peak_mib: $(awk -v k="${kib:-0}" 'BEGIN{printf "%.0f", k/1024}')"
  } >>"$res"
  echo "$id: paper $pn nodes $pa arrows; synthesized $sn nodes $sa arrows; exit $code; ${secs:-?} s" >&2
done
mv "$res" "$out/synthesize_paper_diagrams.yaml"
echo "wrote $out/synthesize_paper_diagrams.yaml" >&2
