#!/usr/bin/env bash
# Proves every instance file DIR/*.v written by `grundy-verify --coq DIR` with coqc against the
# library in this folder (built first), JOBS at a time (default 2). Fails if coqc is missing,
# if DIR holds no .v file, if a file declares an axiom or admits a proof, if any proof fails,
# or if `Print Assumptions` of any theorem names anything but Coq's primitive integers
# (PrimInt63.*, used by the hull of the removing games). Prints one line per file with its
# time, and the totals.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: prove.sh DIR}
command -v coqc >/dev/null 2>&1 || { echo "prove.sh: coqc not found (Debian package coq)"; exit 1; }
make -s -C "$here" all >/dev/null
mapfile -t files < <(find "$dir" -maxdepth 1 -name '*.v' | LC_ALL=C sort)
[ "${#files[@]}" -gt 0 ] || { echo "prove.sh: no .v files in $dir"; exit 1; }
if grep -lE '^[[:space:]]*(Axiom|Admitted|Parameter|Hypothesis|Conjecture)|admit\.' "${files[@]}"; then
  echo "prove.sh: the files above declare an axiom or admit a proof"; exit 1
fi
export here
start=$(date +%s%N)
printf '%s\n' "${files[@]}" | xargs -P "${JOBS:-2}" -I{} bash -c '
  t0=$(date +%s%N)
  if out=$(coqc -Q "$here" Grundy -Q "$(dirname "$1")" Inst "$1" 2>&1); then
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    printf "proved %-40s %4d.%d s\n" "$(basename "$1")" $((ms / 1000)) $((ms % 1000 / 100))
  else
    printf "FAILED %s\n%s\n" "$1" "$out"; exit 255
  fi' _ {}
n=$(cat "${files[@]}" | grep -c '^Theorem ')
# Print Assumptions of every theorem, from the compiled files: per file, one list that refers
# to each of its theorems (`let _ := theorem in tt`), so that one traversal covers them all.
check=$(mktemp -d)
{
  echo "From Coq Require Import List. Import ListNotations."
  for f in "${files[@]}"; do
    m=$(basename "$f" .v)
    echo "From Inst Require $m."
    printf 'Definition all_%s : list unit := [\n' "$m"
    sed -n 's/^Theorem \([A-Za-z0-9_]*\) .*/  (let _ := '"$m"'.\1 in tt)/p' "$f" | sed '$!s/$/;/'
    echo "]."
    echo "Print Assumptions all_$m."
  done
} >"$check/AssumptionsOfAll.v"
assumptions=$(cd "$check" && coqc -Q "$here" Grundy -Q "$dir" Inst AssumptionsOfAll.v 2>&1)
rm -rf "$check"
closed=$(grep -c '^Closed under the global context$' <<<"$assumptions" || true)
prim=$(grep -c '^Axioms:$' <<<"$assumptions" || true)
other=$(grep -v -e '^ ' -e '^Axioms:$' -e '^Closed under the global context$' -e '^PrimInt63\.' <<<"$assumptions" || true)
if [ -n "$other" ] || [ $((closed + prim)) -ne "${#files[@]}" ]; then
  printf 'prove.sh: Print Assumptions names more than the primitive integers:\n%s\n' "$other"; exit 1
fi
echo "prove.sh: Print Assumptions: the theorems of $closed files closed under the global context, of $prim files resting only on the primitive integers PrimInt63.*"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
printf 'prove.sh: %d files, %d theorems proved in %d.%d s (wall)\n' "${#files[@]}" "$n" $((ms / 1000)) $((ms % 1000 / 100))
