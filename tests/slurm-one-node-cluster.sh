#!/bin/bash
# A one-node Slurm cluster in a directory, for tests/sweep_shard_test.cpp: its own munge key and socket,
# its own ports and state, nothing in /etc.
#   tests/slurm-one-node-cluster.sh start DIR   starts munged, slurmctld and slurmd; waits until the node
#                                               is idle; prints the SLURM_CONF to use (exit 1 and the
#                                               daemons' last log lines if it does not come up)
#   tests/slurm-one-node-cluster.sh stop DIR    stops them
set -uo pipefail
action=${1:?start or stop} dir=${2:?directory}
stop() {  # and wait until they have exited (slurmctld writes its state as it goes)
  local pids=()
  for file in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munge/pid; do
    [ -f "$file" ] && pids+=("$(cat "$file")")
  done
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
  for _ in $(seq 1 100); do
    local alive=0
    for pid in "${pids[@]}"; do [ -d "/proc/$pid" ] && [ "$(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null)" != Z ] && alive=1; done
    [ $alive -eq 0 ] && return 0
    sleep 0.1
  done
  return 0
}
if [ "$action" = stop ]; then stop; exit 0; fi
mkdir -p "$dir"/state "$dir"/spool "$dir"/munge
host=$(hostname)
dd if=/dev/urandom of="$dir"/munge/munge.key bs=1024 count=1 2>/dev/null && chmod 600 "$dir"/munge/munge.key
munged --key-file="$dir"/munge/munge.key --socket="$dir"/munge/sock --pid-file="$dir"/munge/pid \
  --log-file="$dir"/munge/log --seed-file="$dir"/munge/seed --force || { tail -3 "$dir"/munge/log; exit 1; }
port=$((20000 + $$ % 20000))
cat > "$dir"/slurm.conf <<CONF
ClusterName=meshmptest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$dir/munge/sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir"/slurm.conf
slurmctld -c && slurmd || { stop; tail -3 "$dir"/slurmctld.log "$dir"/slurmd.log 2>/dev/null; exit 1; }
for _ in $(seq 1 60); do
  if sinfo --noheader --states=idle 2>/dev/null | grep -q idle; then echo "$SLURM_CONF"; exit 0; fi
  sleep 0.5
done
stop
echo "the node did not become idle in 30 s:"
tail -3 "$dir"/slurmctld.log "$dir"/slurmd.log 2>/dev/null
exit 1
