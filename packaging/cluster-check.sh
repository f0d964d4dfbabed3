#!/usr/bin/env bash
# make cluster-check: runs the recipes of docs/sharing-across-machines.md that make no claim on
# other machines, for real, on this one: the Slurm job array (on a one-node cluster this script
# starts: munged, slurmctld and slurmd, with their own key, configuration, ports and state in a
# temporary folder, each stopped by its pid at the end, pass or fail) and its report merge, then
# GNU Parallel's local recipe. The recipes are read from the guide's blocks marked
# "make cluster-check runs this block", so the guide and what runs cannot drift; `/shared` in
# them stands for the temporary folder. Every output must exist once and equal, byte for byte,
# what one machine rendering the whole batch writes, and the merged report must equal that
# machine's report but for its timings. Prints how long each step took.
#
#   packaging/cluster-check.sh AURENDER      (the binary the recipes run as `aurender`)
set -euo pipefail
# The Ray the Ray Data recipe is checked with, from PyPI into out/ray-venv.
ray_version=2.60.0
aurender=$(realpath "${1:?usage: packaging/cluster-check.sh AURENDER}")
# slurmd starts each job as its user, so the cluster runs as root (CI runs as root; else sudo).
[ "$(id -u)" = 0 ] || exec sudo "$0" "$aurender"
cd "$(dirname "$0")/.."
guide=docs/sharing-across-machines.md
work=$(mktemp -d /tmp/aurender-cluster.XXXXXX)
daemons=()
began=$EPOCHREALTIME
fail() { echo "cluster-check: $*" >&2; exit 1; }
seconds() { awk -v from="$1" -v to="$EPOCHREALTIME" 'BEGIN { printf "%.2f s", to - from }'; }

# Stops the daemons this script started, newest first, each by its pid: SIGTERM, then SIGKILL
# after 10 s. Jobs still running (the check failed midway) are cancelled first.
finish() {
    local status=$? entry name pid stopped=()
    if [ "$status" != 0 ] && [ ${#daemons[@]} = 3 ]; then scancel --partition=debug 2>/dev/null || true; sleep 1; fi
    for ((index = ${#daemons[@]} - 1; index >= 0; index--)); do
        entry=${daemons[index]} name=${entry%%:*} pid=${entry#*:}
        kill -TERM "$pid" 2>/dev/null || continue
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null && echo "cluster-check: $name (pid $pid) ignored SIGTERM; killed" >&2
        wait "$pid" 2>/dev/null || true
        stopped+=("$name ($pid)")
    done
    [ ${#stopped[@]} = 0 ] || echo "cluster-check: stopped ${stopped[*]}"
    if [ "$status" != 0 ]; then
        for log in "$work"/munge/munged.log "$work"/slurm/*.log "$work"/slurm/*.out "$work"/jobs/*.out; do
            [ -s "$log" ] && { echo "== $log (its end)" >&2; tail -n 15 "$log" >&2; }
        done
    fi
    rm -rf "$work"
    exit "$status"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The text of the guide's Nth block marked to be run.
marked_block() {
    awk -v wanted="$1" '
        /^<!-- make cluster-check runs this block -->$/ { count++; next }
        count == wanted && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }' "$guide"
}
[ "$(grep -c '^<!-- make cluster-check runs this block -->$' "$guide")" = 3 ] || fail "$guide should mark 3 blocks to run"
parallel_recipe=$(marked_block 1)
array_script=$(marked_block 2 | sed "s#/shared/#$work/shared/#g")
merge_recipe=$(marked_block 3 | sed "s#/shared/#$work/shared/#g")
grep -q '^parallel ' <<<"$parallel_recipe" && grep -q '^#SBATCH --array=' <<<"$array_script" && grep -q 'report merge' <<<"$merge_recipe" \
    || fail "the marked blocks of $guide are not GNU Parallel's recipe, the job array and its merge, in that order"

# The recipes call `aurender`: the binary under test, first on the PATH every job inherits.
mkdir -p "$work/bin"
ln -s "$aurender" "$work/bin/aurender"
export PATH="$work/bin:$PATH"

# The batch: eleven generated files, mono and stereo, 44.1 and 48 kHz, one a FLAC, three in a
# subfolder, and a text file the folder scan passes over.
mkdir -p "$work/shared/in/session"
python3 - "$work/shared/in" <<'EOF'
import math, random, struct, sys, wave
folder = sys.argv[1]
random.seed(23)
for index in range(11):
    name = f"session/take-{index:02}.wav" if index >= 8 else f"take-{index:02}.wav"
    rate, channels = (48000, 2) if index % 3 == 0 else (44100, 1 + index % 2)
    frames = rate * (1 + index % 4)
    with wave.open(f"{folder}/{name}", "wb") as file:
        file.setnchannels(channels)
        file.setsampwidth(2)
        file.setframerate(rate)
        samples = []
        for frame in range(frames):
            tone = 0.3 * math.sin(2 * math.pi * (110 * (index + 1)) * frame / rate)
            samples += [int(32767 * (tone + random.uniform(-0.05, 0.05))) for _ in range(channels)]
        file.writeframes(struct.pack(f"<{len(samples)}h", *samples))
EOF
aurender -q "$work/shared/in/take-04.wav" "$work/shared/in/take-04.flac"
rm "$work/shared/in/take-04.wav"
echo "notes" >"$work/shared/in/notes.txt"
inputs=$(cd "$work/shared/in" && find . -name '*.wav' -o -name '*.flac' | wc -l)

# Compares a recipe's outputs in $1 and merged report $2 with a one-machine batch's outputs in
# $3 and report $4: the same files, byte for byte, and the same report but for the timings.
compare() {
    local recipe=$1 report=$2 reference=$3 one=$4 listed
    listed=$(cd "$recipe" && find . -type f | sort)
    [ "$listed" = "$(cd "$reference" && find . -type f | sort)" ] || fail "$recipe holds other files than one machine's batch: $listed"
    [ "$(wc -l <<<"$listed")" = "$inputs" ] || fail "$recipe holds $(wc -l <<<"$listed") outputs for $inputs inputs"
    while read -r file; do
        cmp -s "$recipe/$file" "$reference/$file" || fail "$recipe/$file differs from one machine's render"
    done <<<"$listed"
    python3 - "$report" "$one" <<'EOF'
import json, sys
def untimed(path):
    report = json.load(open(path))
    for entry in report["rendered"]:
        del entry["renderSeconds"], entry["realtimeFactor"]
    return report
merged, one = untimed(sys.argv[1]), untimed(sys.argv[2])
if merged != one:
    keys = [key for key in sorted(set(merged) | set(one)) if merged.get(key) != one.get(key)]
    sys.exit(f"cluster-check: {sys.argv[1]} differs from the one-machine report in {keys}")
if len(merged["rendered"]) != len(set(entry["output"] for entry in merged["rendered"])):
    sys.exit(f"cluster-check: {sys.argv[1]} lists an output twice")
EOF
}

# One node: munged with its own key and socket, then slurmctld and slurmd on free ports.
started=$EPOCHREALTIME
mkdir -p "$work/munge" "$work/slurm/state" "$work/slurm/spool" "$work/jobs"
chmod 755 "$work" "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --foreground --force --key-file="$work/munge/munge.key" --socket="$work/munge/socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed" \
    >/dev/null 2>&1 &
daemons+=("munged:$!")
for _ in $(seq 100); do [ -S "$work/munge/socket" ] && break; sleep 0.1; done
[ -S "$work/munge/socket" ] || fail "munged did not open its socket"
read -r controller_port node_port < <(python3 -c '
import socket
sockets = [socket.socket() for _ in range(2)]
for s in sockets: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in sockets])')
memory=$(awk '/^MemTotal:/ { print int($2 / 1024 / 2) }' /proc/meminfo)
export SLURM_CONF=$work/slurm/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=aurender-check
SlurmctldHost=localhost
SlurmctldPort=$controller_port
SlurmdPort=$node_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/slurm/state
SlurmdSpoolDir=$work/slurm/spool
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/slurmctld.log
SlurmdLogFile=$work/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MailProg=/bin/true
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -c -f "$SLURM_CONF" >"$work/slurm/slurmctld.out" 2>&1 &
daemons+=("slurmctld:$!")
slurmd -D -f "$SLURM_CONF" -N localhost >"$work/slurm/slurmd.out" 2>&1 &
daemons+=("slurmd:$!")
for _ in $(seq 600); do [ "$(sinfo -h -n localhost -o %T 2>/dev/null)" = idle ] && break; sleep 0.1; done
[ "$(sinfo -h -n localhost -o %T 2>/dev/null)" = idle ] || fail "the node did not come up idle: $(sinfo -h -N 2>&1)"
echo "cluster-check: one-node Slurm cluster up (munged, slurmctld, slurmd on ports $controller_port/$node_port) in $(seconds "$started")"

# The job array, as the guide has it, and its merge.
printf '%s\n' "$array_script" >"$work/jobs/render.sh"
started=$EPOCHREALTIME
submitted=$(cd "$work/jobs" && timeout 600 sbatch --parsable --wait render.sh) || fail "the job array failed (sbatch --wait exited $?)"
job=${submitted%%;*}
array_time=$(seconds "$started")
tasks=$(ls "$work/jobs" | grep -c "^slurm-${job}_[0-9]*\.out$" || true)
[ "$tasks" = 4 ] || fail "job $job ran $tasks array tasks, not 4"
for log in "$work"/jobs/slurm-*.out; do [ ! -s "$log" ] || fail "$(basename "$log"): $(head -n 3 "$log")"; done
started=$EPOCHREALTIME
(cd "$work" && sh -e -c "$merge_recipe")
merge_time=$(seconds "$started")
mv "$work/shared/out" "$work/slurm-out"
started=$EPOCHREALTIME
aurender -q -r --eq Rock -o "$work/shared/out" "$work/shared/in" --report "$work/one-slurm.json"
one_time=$(seconds "$started")
compare "$work/slurm-out" "$work/shared/report.json" "$work/shared/out" "$work/one-slurm.json"
echo "cluster-check: Slurm job $job: 4 array tasks rendered the $inputs inputs in $array_time (sbatch --wait), each once, equal to one" \
    "machine's batch ($one_time); report merge $merge_time, equal to its report but for the timings"

# GNU Parallel's local recipe, in a folder of its own holding a copy of the inputs.
mkdir -p "$work/parallel"
cp -r "$work/shared/in" "$work/parallel/in"
started=$EPOCHREALTIME
(cd "$work/parallel" && sh -e -c "$parallel_recipe")
parallel_time=$(seconds "$started")
mv "$work/parallel/out" "$work/parallel/recipe-out"
(cd "$work/parallel" && aurender -q -r --eq Rock -o out in --report one.json)
compare "$work/parallel/recipe-out" "$work/parallel/report.json" "$work/parallel/out" "$work/parallel/one.json"
echo "cluster-check: GNU Parallel rendered the $inputs inputs in 4 shares in $parallel_time (with the merge), each once, equal to one" \
    "machine's batch, its merged report equal to that batch's but for the timings"
# The Ray Data recipe: a 200-row manifest of short renders (options, chains and a graph), run by
# the recipe on a local Ray instance of two CPUs, in a folder of its own, and by one machine's
# `aurender batch` in another; Ray comes from PyPI into a virtual environment kept in out/.
recipe=packaging/ray-recipe.py
shown=$(awk '/^<!-- packaging\/ray-recipe.py/ { found = 1; next } found && /^```/ { if (inside) exit; inside = 1; next } inside { print }' "$guide")
[ "$shown" = "$(cat "$recipe")" ] || fail "the Ray recipe $guide shows is not $recipe"
venv=out/ray-venv
started=$EPOCHREALTIME
if [ "$("$venv/bin/python" -c 'import ray, ray.data; print(ray.__version__)' 2>/dev/null)" != "$ray_version" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "ray[data]==$ray_version"
fi
echo "cluster-check: Ray $ray_version ready in $(seconds "$started")"
mkdir -p "$work/ray/in"
python3 - "$work/ray" <<'EOF2'
import json, math, struct, sys, wave
folder = sys.argv[1]
for index in range(20):
    rate, channels = (48000, 2) if index % 3 == 0 else (44100, 1 + index % 2)
    frames = rate * (1 + index % 2)
    with wave.open(f"{folder}/in/take-{index:02}.wav", "wb") as file:
        file.setnchannels(channels)
        file.setsampwidth(2)
        file.setframerate(rate)
        samples = [int(9000 * math.sin(2 * math.pi * 110 * (index + 1) * frame / rate)) for frame in range(frames) for _ in range(channels)]
        file.writeframes(struct.pack(f"<{len(samples)}h", *samples))
graph = {"nodes": [{"name": "in", "type": "file", "path": "x.wav"}, {"name": "eq", "type": "eq", "preset": "Pop"},
                   {"name": "out", "type": "output", "path": "y.wav", "bits": "24"}],
         "connections": [{"from": "in", "to": "eq"}, {"from": "eq", "to": "out"}]}
json.dump(graph, open(f"{folder}/eq.json", "w"))
kinds = [({"options": {"eq": "Rock"}}, "wav"), ({"options": {"rate": 48000, "bits": 24}}, "wav"), ({"options": {"gain": -3}}, "flac"),
         ({"chain": "highpass frequency=120 | gain gain=-2"}, "wav"), ({"graph": "eq.json"}, "wav"),
         ({"options": {"channels": 1, "rate": 22050}}, "aiff")]
with open(f"{folder}/jobs.jsonl", "w") as file:
    for row in range(200):
        kind, extension = kinds[row % len(kinds)]
        file.write(json.dumps({"input": f"in/take-{row % 20:02}.wav", "output": f"out/job-{row:03}.{extension}", **kind}) + "\n")
EOF2
cp -r "$work/ray" "$work/one"
started=$EPOCHREALTIME
(cd "$work/ray" && PATH="$work/bin:$PATH" RAY_DEDUP_LOGS=0 "$OLDPWD/$venv/bin/python" "$OLDPWD/$recipe" jobs.jsonl results 2 >ray.log 2>&1) \
    || { tail -n 30 "$work/ray/ray.log" >&2; fail "the Ray recipe failed"; }
ray_time=$(seconds "$started")
started=$EPOCHREALTIME
(cd "$work/one" && aurender batch jobs.jsonl --results results.jsonl)
one_time=$(seconds "$started")
listed=$(cd "$work/ray/out" && find . -type f | sort)
[ "$listed" = "$(cd "$work/one/out" && find . -type f | sort)" ] || fail "the Ray recipe wrote other files than one machine's batch"
[ "$(wc -l <<<"$listed")" = 200 ] || fail "the Ray recipe wrote $(wc -l <<<"$listed") outputs for 200 jobs"
while read -r file; do
    cmp -s "$work/ray/out/$file" "$work/one/out/$file" || fail "ray/out/$file differs from one machine's batch"
done <<<"$listed"
python3 - "$work/ray/results" <<'EOF2'
import glob, json, sys
rows = [json.loads(line) for path in sorted(glob.glob(f"{sys.argv[1]}/*.json")) for line in open(path)]
outputs = [row["output"] for row in rows]
if len(rows) != 200 or len(set(outputs)) != 200 or any(row["status"] != "rendered" for row in rows):
    sys.exit(f"cluster-check: the Ray recipe's results hold {len(rows)} rows, {len(set(outputs))} outputs, "
             f"{sum(row['status'] != 'rendered' for row in rows)} not rendered")
EOF2
echo "cluster-check: Ray Data rendered the 200 jobs in $ray_time (ray.init, 8 batches of 25, write_json), each once, equal to one" \
    "machine's aurender batch ($one_time); its 200 result rows each rendered"
echo "cluster-check: passed in $(seconds "$began")"
