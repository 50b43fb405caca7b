#!/bin/sh
# lease.sh OUT [PLAN]: one GPU lease's plan (the device tool's H100 or
# H200), each step built there by the machine's own nvcc (its CUB is the
# one compared with). PLAN is
#
#   main   (the default) the sweep of the device scan's tuning, the
#          network tables without compute-sanitizer, then an Nsight
#          Compute profile of the int32 sweep's scans (every variant's and
#          CUB's, once each at 2^28 items) where ncu is installed: at most
#          8 minutes;
#   suite  the whole suite without compute-sanitizer: at most 9.5 minutes,
#          a lease of its own (its five nvcc builds alone took about 370 s
#          on an H200 with nvcc 13.0).
#
# Run from the repository root, with a prefixgen binary built for linux
# at $PG (default .lease/prefixgen, an ignored folder the device tool
# carries):
#
#   CGO_ENABLED=0 go build -o .lease/prefixgen ./cmd/prefixgen
#   (device) gpukernels/bench/lease.sh "$OUT"
#
# Every step has its own time limit and prints progress as it goes; the
# builds and logs stay in $WORK (default /tmp/prefixgen-lease), and what
# comes back is at most 8 files in OUT, copied after every step, so that a
# cut-off lease still leaves what finished: device.txt (GPU, driver,
# nvcc), the tables' JSON (main: sweep-int32, sweep-int64 and three
# networks-TYPE-add, and ncu-sweep-int32.csv; suite: five) and lease.log
# (every step's output and every run.log).
set -u
OUT=${1:?usage: gpukernels/bench/lease.sh OUT [main|suite]}
PLAN=${2:-main}
PG=${PG:-.lease/prefixgen}
WORK=${WORK:-/tmp/prefixgen-lease}
SWEEP_LIMIT=${SWEEP_LIMIT:-150}
NETWORKS_LIMIT=${NETWORKS_LIMIT:-240}
PROFILE_LIMIT=${PROFILE_LIMIT:-90}
SUITE_LIMIT=${SUITE_LIMIT:-570}
PATH=$PATH:/usr/local/cuda/bin
export PATH
case "$PLAN" in
main | suite) ;;
*)
	echo "lease.sh: unknown plan \"$PLAN\": allowed main, suite" >&2
	exit 2
	;;
esac
mkdir -p "$OUT" "$WORK"
LOG=$WORK/lease.log
: >"$LOG"
start=$(date +%s)

say() {
	echo "lease: $(($(date +%s) - start)) s: $*" | tee -a "$LOG"
}

# collect copies every table's JSON and every run.log written so far into
# OUT.
collect() {
	for f in "$WORK"/sweep/*.json "$WORK"/networks/*.json "$WORK"/suite/*.json "$WORK"/profile/*.csv; do
		if [ -f "$f" ]; then cp "$f" "$OUT/"; fi
	done
	{
		cat "$LOG"
		for f in "$WORK"/sweep/*/run.log "$WORK"/networks/*/run.log "$WORK"/suite/*/run.log; do
			if [ -f "$f" ]; then
				echo "== $f"
				cat "$f"
			fi
		done
	} >"$OUT/lease.log"
}

# step NAME LIMIT CMD…: runs CMD under a time limit of LIMIT seconds,
# its output into the log as it comes, and collects.
step() {
	name=$1
	limit=$2
	shift 2
	say "$name: start (limit $limit s): $*"
	timeout --kill-after=10 "$limit" "$@" >>"$LOG" 2>&1
	rc=$?
	say "$name: exit $rc"
	collect
}

say "device, plan $PLAN"
{
	nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
	nvcc --version | tail -n 2
} >"$OUT/device.txt" 2>&1
cat "$OUT/device.txt" | tee -a "$LOG"

if [ "$PLAN" = main ]; then
	step sweep "$SWEEP_LIMIT" "$PG" cuda bench --sweep "$WORK/sweep" --arch sm_90 --tool-timeout "$((SWEEP_LIMIT - 10))s"
	step networks "$NETWORKS_LIMIT" "$PG" cuda bench --networks "$WORK/networks" --no-sanitize --arch sm_90 --tool-timeout "$((NETWORKS_LIMIT - 10))s"
	# The profile: long-scoreboard stalls (WarpStateStats), DRAM bytes
	# (MemoryWorkloadAnalysis) and the rest of what the sections measure,
	# of every ScanKernel (the variants' and CUB's DeviceScanKernel).
	NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | head -n 1)
	harness=$WORK/sweep/sweep-int32/harness
	if [ -z "$NCU" ]; then
		say "profile: skipped: no ncu on PATH or under /usr/local/cuda"
	elif [ ! -x "$harness" ]; then
		say "profile: skipped: the sweep built no $harness"
	else
		mkdir -p "$WORK/profile"
		step profile "$PROFILE_LIMIT" "$NCU" --csv --page details --section SpeedOfLight --section MemoryWorkloadAnalysis \
			--section WarpStateStats --section Occupancy --kernel-name regex:ScanKernel \
			--log-file "$WORK/profile/ncu-sweep-int32.csv" "$harness" --profile
	fi
else
	step suite "$SUITE_LIMIT" "$PG" cuda bench --suite "$WORK/suite" --no-sanitize --arch sm_90 --tool-timeout "$((SUITE_LIMIT - 10))s"
fi
say "done"
collect
