#!/usr/bin/env bash
# Throughput of a sweep over MPI ranks: times `mpirun -np K sinew-mpi sweep` for each K (default
# 1 2 4) on one sweep file, each run into a fresh folder, and writes a JSON report with the wall
# time, variants per minute and seconds per variant of each K, for both ways rank 0 can work
# (it also runs variants, or --coordinate-only). Ranks beyond this machine's cores are
# oversubscribed (--oversubscribe), which is what the K = 4 figure on a 2-core machine measures.
#
#   bench/ensemble_mpi_bench.sh BUILD_DIR [SWEEP] [OUT.json] [RANKS...]
#   e.g. bench/ensemble_mpi_bench.sh build scenes/sweeps/slope_friction.json mpi_bench.json 1 2 4
set -euo pipefail
build=${1:?usage: ensemble_mpi_bench.sh BUILD_DIR [SWEEP] [OUT.json] [RANKS...]}
sweep=${2:-$(dirname "$0")/ensemble_bench_sweep.json}
out=${3:-ensemble_mpi_bench.json}
shift $(( $# < 3 ? $# : 3 ))
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(1 2 4)
prog=$build/apps/sinew-mpi
[ -x "$prog" ] || { echo "no $prog: configure with -DSINEW_WITH_MPI=ON and build sinew-mpi" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # containers run as root
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rows=()
for mode in compute coordinate-only; do
  for k in "${ranks[@]}"; do
    extra=()
    [ "$mode" = coordinate-only ] && extra=(--coordinate-only)
    [ "$mode" = coordinate-only ] && [ "$k" -lt 2 ] && continue  # needs a worker rank
    rm -rf "$tmp/run"
    start=$(date +%s.%N)
    set +e
    mpirun --oversubscribe -np "$k" "$prog" sweep "$sweep" --out "$tmp/run" --quiet "${extra[@]}" > "$tmp/log" 2>&1
    rc=$?
    set -e
    end=$(date +%s.%N)
    [ $rc -le 1 ] || { cat "$tmp/log" >&2; exit $rc; }
    n=$(( $(wc -l < "$tmp/run/summary.csv") - 1 ))
    # sweep_seconds: the sweep itself as rank 0 reports it; wall_seconds adds mpirun's start-up.
    sweep_s=$(sed -n 's/.* \([0-9.]*\) s wall on .*/\1/p' "$tmp/log")
    rows+=("$(python3 -c "import json,sys; w=float(sys.argv[2])-float(sys.argv[1]); n=int(sys.argv[3]); s=float(sys.argv[7]);
print(json.dumps({'ranks': int(sys.argv[4]), 'root': sys.argv[5], 'variants': n, 'wall_seconds': round(w, 4),
 'sweep_seconds': s, 'variants_per_min': round(60*n/s, 2), 'seconds_per_variant': round(s/n, 5),
 'exit_code': int(sys.argv[6])}))" "$start" "$end" "$n" "$k" "$mode" "$rc" "$sweep_s")")
    echo "${rows[-1]}"
  done
done
python3 -c "import json,sys,os; print(json.dumps({'sweep': sys.argv[1], 'cores': os.cpu_count(),
 'load_average': os.getloadavg()[0], 'runs': [json.loads(r) for r in sys.argv[2:]]}, indent=2))" "$sweep" "${rows[@]}" > "$out"
echo "wrote $out"
