# Sourced by the training scripts: `bench ARGS` runs `python3 -m table bench strength ARGS` once,
# appending the command and its output to training/bench.txt; a command already recorded there
# is not run again (so a stopped script resumes where it was).  Also sets what every training
# script uses: PYTHONPATH (this checkout's src unless TABLE_SRC says otherwise), $ck (the
# checkpoints) and $data (the labelled sets, not in git).
export PYTHONPATH="${TABLE_SRC:-$PWD/src}"
ck=training/checkpoints
data=training/data
bench() {
  local cmd="python3 -m table bench strength $*"
  if grep -qxF "\$ $cmd" training/bench.txt; then
    return 0
  fi
  local out
  out="$($cmd)" || { echo "not recorded, it failed: $cmd" >&2; return 1; }
  printf '$ %s\n%s\n' "$cmd" "$out" >> training/bench.txt
}
