#!/usr/bin/env bash
# Pass 16a-c (issue 13): an early look at pass 16 (training/twoply16.sh).  The first 140,000 of
# its 200,000 positions (labelled by rollout-14's 2-ply look-ahead; the same whether pass 16
# has finished or is still labelling, training/first_labelled.py) fitted the way pass 16 fits,
# then played against rollout-14 and the old Mediu over 40,000 games each.
# Usage: PATH=$PWD/.venv/bin:$PATH nohup bash training/twoply16a.sh > training/run-twoply16a.log 2>&1 &
set -eu
cd "$(dirname "$0")/.."
source training/bench-once.sh
prev=$ck/rollout-14.npz
two=$data/twoply-16a.npz
[ -f "$two" ] || python3 training/first_labelled.py "$data/twoply-16" 140000 "$two"
# fit NAME LR LR_FINAL COPIES: rollout-14 fitted to the 2-ply set (COPIES times) and pass 14's sets.
fit() {
  local out=$ck/$1.npz extra=()
  for _ in $(seq 2 "$4"); do extra+=(--also "$two"); done
  if [ ! -f "$out" ]; then
    python3 -m table refine --weights "$prev" --out "$out" --label 2-ply \
      --data "$two" "${extra[@]}" --also "$data/rollout-14.npz" --also "$data/lead-13b.npz" \
      --also "$data/held-13.npz" --also "$data/refine-12-rest-14.npz" \
      --seed 161 --epochs 12 --lr "$2" --lr-final "$3"
  fi
}
# 16a: the 2-ply set once (about 12% of the positions).
fit twoply-16a 3e-3 3e-5 1
bench "$ck/twoply-16a.npz $prev --games 40000 --jobs 2"
bench "$ck/twoply-16a.npz $ck/refine-3.npz --games 40000 --jobs 2"
# 16b: the 2-ply set counted three times (about 30%).
fit twoply-16b 3e-3 3e-5 3
bench "$ck/twoply-16b.npz $prev --games 40000 --jobs 2"
# 16c: as 16b with a tenth of the learning rate: a fine-tune that keeps more of rollout-14 (shipped).
fit twoply-16c 3e-4 3e-6 3
bench "$ck/twoply-16c.npz $prev --games 40000 --jobs 2"
bench "$ck/twoply-16c.npz $ck/refine-3.npz --games 40000 --jobs 2"
bench "$ck/twoply-16c.npz $prev --games 40000 --jobs 2 --seed 7"
