#!/usr/bin/env bash
# Pass 15 (issue 13): more hidden units.  rollout-14's networks are widened (the new units
# start silent, so the widened networks judge as rollout-14 does) to 384 and 512 units in the
# first layer, and fitted again to pass 14's sets (the rollout-labelled sets of passes 13-14
# and the rest of pass 12's 1-ply set), 12 epochs, lr 3e-3 -> 3e-5, one core each; then each
# plays rollout-14 and the old Mediu (refine-3) over 40,000 games.
# Resumable: a finished network is skipped and a recorded benchmark not rerun.
# Usage: PATH=$PWD/.venv/bin:$PATH nohup bash research/nets/wide15.sh > training/run-wide15.log 2>&1 &
set -eu
cd "$(dirname "$0")/../.."
export BENCH=${BENCH:-research/bench.txt}  # the research record, not the pipeline's
source training/bench-once.sh
prev=$ck/rollout-14.npz
sets=(--data "$data/rollout-14.npz" --also "$data/lead-13b.npz" --also "$data/held-13.npz"
      --also "$data/refine-12-rest-14.npz")
widths=(${WIDTHS:-384 512})
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
pids=()
for h in "${widths[@]}"; do
  out=$ck/wide-15-h$h.npz
  if [ ! -f "$out" ]; then
    python3 -m table refine --weights "$prev" --out "$out" --label rollout --trials 18 --depth 1000 \
      "${sets[@]}" --hidden "$h" --seed 151 --epochs 12 --lr 3e-3 --lr-final 3e-5 &
    pids+=($!)
  fi
done
for p in "${pids[@]}"; do wait "$p"; done
unset OPENBLAS_NUM_THREADS OMP_NUM_THREADS
for h in "${widths[@]}"; do
  bench "$ck/wide-15-h$h.npz $prev --games 40000 --jobs 2"
done
for h in "${widths[@]}"; do
  bench "$ck/wide-15-h$h.npz $ck/refine-3.npz --games 40000 --jobs 2"
done
