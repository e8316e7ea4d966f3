#!/usr/bin/env bash
# The distributed path for real: a single-node Slurm cluster on this machine runs README's job
# array for `grundy spectrum --vertices 8 --shard i/4` and the merge job (--dependency=afterok),
# and the merged result must equal the unsharded run (every field but `shards` and `seconds`).
#
# Needs root on Debian 12 (apt-get installs slurm-wlm, munge, nauty, python3 when missing).
# No systemd: munged, slurmctld and slurmd are started directly with a generated slurm.conf
# (localhost, 2 CPUs, private ports, state and logs in a scratch directory) and stopped on exit.
# Exit 0: the results agree; 1: they differ or a job failed; 2: the cluster could not start.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

log() { printf 'slurm test: %s\n' "$*" >&2; }
[ "$(id -u)" = 0 ] || { log "must run as root (starts munged, slurmctld, slurmd)"; exit 2; }

need=()
command -v slurmctld >/dev/null 2>&1 || need+=(slurm-wlm)
command -v munged >/dev/null 2>&1 || need+=(munge)
command -v nauty-geng >/dev/null 2>&1 || command -v geng >/dev/null 2>&1 || need+=(nauty)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ "${#need[@]}" -gt 0 ]; then
  log "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

bin=${GRUNDY:-$root/target/release/grundy}
if [ -z "${GRUNDY:-}" ]; then
  cargo build --release --quiet
fi
[ -x "$bin" ] || { log "no grundy binary at $bin"; exit 2; }

work=$(mktemp -d /tmp/grundy-slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  local rc=$?
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  if [ "$rc" != 0 ]; then
    for f in "$work"/*.log; do [ -f "$f" ] && { log "--- $f"; tail -n 20 "$f" >&2; }; done
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT INT TERM

# munge: a private key, socket and daemon (any system munged is left alone).
mkdir -p "$work/munge" "$work/munge-key"
chown munge:munge "$work/munge" "$work/munge-key"
chmod 755 "$work/munge" # the socket's directory must be searchable by all
chmod 700 "$work/munge-key"
key="$work/munge-key/munge.key"
dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
chown munge:munge "$key"
chmod 400 "$key"
sock="$work/munge/munge.socket"
setpriv --reuid=munge --regid=munge --init-groups /usr/sbin/munged --foreground --key-file="$key" \
  --socket="$sock" --pid-file="$work/munge/munged.pid" --log-file="$work/munged.log" \
  --seed-file="$work/munge-key/munged.seed" 2>"$work/munged.log" &
pids+=($!)
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || { log "munged did not start"; exit 2; }

# A free pair of ports for slurmctld and slurmd.
port=$(python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close()
t = socket.socket(); t.bind(("127.0.0.1", 0)); q = t.getsockname()[1]; t.close()
print(p, q)')
read -r ctld_port slurmd_port <<<"$port"
host=$(hostname -s)
mkdir -p "$work/state" "$work/spool"
conf="$work/slurm.conf"
cat >"$conf" <<CONF
ClusterName=grundy
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=grundy Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$conf
/usr/sbin/slurmctld -D -i -f "$conf" 2>"$work/slurmctld.err.log" &
pids+=($!)
/usr/sbin/slurmd -D -f "$conf" 2>"$work/slurmd.err.log" &
pids+=($!)
ready=
for _ in $(seq 100); do
  if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then ready=1; break; fi
  sleep 0.3
done
[ -n "$ready" ] || { log "the node did not come up: $(sinfo -h 2>&1 || true)"; exit 2; }
log "cluster up ($host, slurmctld port $ctld_port)"

# README's job array and merge job (with the binary's full path and this scratch directory).
cat >"$work/array.sh" <<JOB
#!/bin/bash
#SBATCH --job-name=spectrum8
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --output=$work/spectrum8-%a.log
export RAYON_NUM_THREADS=\$SLURM_CPUS_PER_TASK
"$bin" spectrum --vertices 8 --shard \$SLURM_ARRAY_TASK_ID/4 --json > "$work/shard-\$SLURM_ARRAY_TASK_ID.json"
JOB
cat >"$work/merge.sh" <<JOB
#!/bin/bash
#SBATCH --job-name=spectrum8-merge
#SBATCH --output=$work/merge.log
"$bin" spectrum merge "$work"/shard-*.json --json > "$work/merged.json"
JOB
array=$(sbatch --parsable --chdir="$work" "$work/array.sh")
merge=$(sbatch --parsable --chdir="$work" --dependency=afterok:"$array" "$work/merge.sh")
log "submitted array $array and merge $merge (afterok:$array)"

# Meanwhile, the unsharded run.
"$bin" spectrum --vertices 8 --json >"$work/full.json"

state() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -n 1 | cut -d= -f2; }
deadline=$((SECONDS + ${SLURM_TEST_TIMEOUT:-150}))
while :; do
  s=$(state "$merge")
  case "$s" in
    COMPLETED) break ;;
    FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE)
      log "merge job ended $s"; exit 1 ;;
    PENDING)
      if scontrol -o show job "$merge" | grep -q 'Reason=DependencyNeverSatisfied'; then
        log "a shard failed: the merge can never run"; exit 1
      fi ;;
  esac
  [ "$SECONDS" -lt "$deadline" ] || { log "timed out (merge job state: ${s:-unknown})"; exit 1; }
  sleep 1
done
for i in 0 1 2 3; do
  s=$(scontrol -o show job "${array}_$i" | grep -o 'JobState=[A-Z_]*' | head -n 1 | cut -d= -f2)
  [ "$s" = COMPLETED ] || { log "array task $i: $s"; exit 1; }
done

python3 - "$work/full.json" "$work/merged.json" <<'PY'
import json, sys
full, merged = (json.load(open(p)) for p in sys.argv[1:3])
assert merged.get("complete") is True, "merge not marked complete"
assert sorted(merged["shards"]) == ["0/4", "1/4", "2/4", "3/4"], merged["shards"]
# The shards' checks: one per shard, their graphs and digests (sums mod 2^128) adding up to the
# unsharded run's single check; the merge recomputed one shard.
(whole,) = full["checks"].values()
parts = merged["checks"]
assert sorted(parts) == ["0/4", "1/4", "2/4", "3/4"], sorted(parts)
assert sum(c["graphs"] for c in parts.values()) == whole["graphs"], (parts, whole)
digest = sum(int(c["digest"], 16) for c in parts.values()) % (1 << 128)
assert digest == int(whole["digest"], 16), (parts, whole)
assert len(merged.get("rechecked", [])) == 1, merged.get("rechecked")
for k in ("shards", "seconds", "checks", "rechecked"):
    full.pop(k, None); merged.pop(k, None)
if full != merged:
    for k in sorted(set(full) | set(merged)):
        if full.get(k) != merged.get(k):
            print(f"slurm test: field {k} differs:\n  unsharded {full.get(k)}\n  merged    {merged.get(k)}", file=sys.stderr)
    sys.exit(1)
print(f"slurm test: merged job array equals the unsharded run ({full['graphs']} graphs on 8 vertices)")
PY

# Optional (not in CI): a sample of the 12-vertex job array, to measure the shard rate the
# cluster plan rests on. SAMPLE12="r1 r2 ..." names shards r/M12 (M12=100000 by default).
if [ -n "${SAMPLE12:-}" ]; then
  read -ra picks <<<"$SAMPLE12"
  m12=${M12:-100000}
  last=$((${#picks[@]} - 1))
  cat >"$work/array12.sh" <<JOB
#!/bin/bash
#SBATCH --job-name=spectrum12-sample
#SBATCH --array=0-$last
#SBATCH --cpus-per-task=1
#SBATCH --output=$work/spectrum12-%a.log
picks=(${picks[*]})
r=\${picks[\$SLURM_ARRAY_TASK_ID]}
export RAYON_NUM_THREADS=\$SLURM_CPUS_PER_TASK
/usr/bin/time -f '%U %S' -o "$work/cpu12-\$r" "$bin" spectrum --vertices 12 --shard \$r/$m12 --json > "$work/shard12-\$r.json"
JOB
  cat >"$work/merge12.sh" <<JOB
#!/bin/bash
#SBATCH --job-name=spectrum12-merge
#SBATCH --output=$work/merge12.log
"$bin" spectrum merge --partial "$work"/shard12-*.json --json > "$work/merged12.json"
JOB
  a12=$(sbatch --parsable --chdir="$work" "$work/array12.sh")
  m12job=$(sbatch --parsable --chdir="$work" --dependency=afterok:"$a12" "$work/merge12.sh")
  log "submitted the 12-vertex sample array $a12 (${#picks[@]} shards of $m12) and merge $m12job"
  deadline=$((SECONDS + ${SAMPLE12_TIMEOUT:-3600}))
  until [ "$(state "$m12job")" = COMPLETED ]; do
    case "$(state "$m12job")" in FAILED | CANCELLED | TIMEOUT | NODE_FAIL) log "12-vertex merge failed"; exit 1 ;; esac
    [ "$SECONDS" -lt "$deadline" ] || { log "12-vertex sample timed out"; exit 1; }
    sleep 2
  done
  python3 - "$work" "$m12" "${picks[@]}" <<'PY'
import json, sys
work, m, picks = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
merged = json.load(open(f"{work}/merged12.json"))
cpu = sum(sum(map(float, open(f"{work}/cpu12-{r}").read().split())) for r in picks)
g = merged["graphs"]
print(f"slurm test: 12-vertex sample: {len(merged['shards'])} shards of {m} merged, {g} graphs, "
      f"{cpu:.1f} CPU s, {g / cpu:.0f} graphs per CPU-second; complete: {merged['complete']}")
PY
fi
