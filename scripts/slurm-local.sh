#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the tests and for trying
# scripts/slurm-compress.sh: munged, slurmctld and slurmd from Debian's munge and
# slurm-wlm, started directly (no systemd), with their own key, socket, ports and state
# under $UZ_SLURM_DIR (default /tmp/ucizip-slurm), every address 127.0.0.1.
#
#   scripts/slurm-local.sh start    # prints the SLURM_CONF line to export
#   scripts/slurm-local.sh stop
#   scripts/slurm-local.sh status
#
# Needs root (slurmd runs jobs as their user). Install the packages with
# scripts/setup.sh --slurm (or apt-get install slurm-wlm munge).
set -euo pipefail

dir=${UZ_SLURM_DIR:-/tmp/ucizip-slurm}
conf=$dir/slurm.conf
ctld_port=${UZ_SLURM_PORT:-16817}
node=$(hostname -s)

die() { echo "slurm-local: $*" >&2; exit 1; }

stop() {
    for name in slurmd slurmctld munged; do
        pidfile=$dir/$name.pid
        if [ -f "$pidfile" ]; then
            pid=$(cat "$pidfile")
            if kill -0 "$pid" 2>/dev/null; then
                kill "$pid" 2>/dev/null || true
                for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
                kill -9 "$pid" 2>/dev/null || true
            fi
            rm -f "$pidfile"
        fi
    done
}

start() {
    for exe in munged slurmctld slurmd sbatch scontrol sinfo; do
        command -v "$exe" >/dev/null 2>&1 || [ -x "/usr/sbin/$exe" ] ||
            die "$exe not found: install slurm-wlm and munge (scripts/setup.sh --slurm)"
    done
    [ "$(id -u)" -eq 0 ] || die "must run as root (slurmd starts jobs as their user)"
    stop
    mkdir -p "$dir"/{state,spool,log}
    chmod 700 "$dir"
    # munge: a key of our own, its socket in our directory.
    if [ ! -f "$dir/munge.key" ]; then
        dd if=/dev/urandom of="$dir/munge.key" bs=1 count=1024 status=none
    fi
    chmod 400 "$dir/munge.key"
    /usr/sbin/munged --force --key-file="$dir/munge.key" --socket="$dir/munge.sock" \
        --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge.seed" \
        --num-threads=2 || die "munged did not start (see $dir/log/munged.log)"

    cpus=$(nproc)
    mem=$(awk '/MemTotal/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
    cat > "$conf" <<EOF
# Written by scripts/slurm-local.sh: a one-node cluster on 127.0.0.1.
ClusterName=ucizip-local
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$((ctld_port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
# Start pending array tasks and dependent jobs within a second or two, not a minute.
SchedulerParameters=sched_interval=1,sched_min_interval=100000,bf_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$node CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
    export SLURM_CONF=$conf
    /usr/sbin/slurmctld -f "$conf" -i || die "slurmctld did not start (see $dir/log/slurmctld.log)"
    /usr/sbin/slurmd -f "$conf" || die "slurmd did not start (see $dir/log/slurmd.log)"
    for _ in $(seq 100); do
        state=$(sinfo -h -o %T 2>/dev/null | head -1 || true)
        case "$state" in
        idle*|mixed*|allocated*) echo "export SLURM_CONF=$conf"; return 0 ;;
        esac
        sleep 0.1
    done
    die "the node did not come up (state '${state:-none}'; see $dir/log/)"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) SLURM_CONF=$conf sinfo ;;
*) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
