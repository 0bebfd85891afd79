# Sourced by the training scripts: `bench ARGS` runs `python3 -m table bench strength ARGS` once,
# appending the command and its output to $BENCH (training/bench.txt unless set; the research
# scripts set research/bench.txt, the record of every measurement so far); a command already
# recorded there is not run again (so a stopped script resumes where it was).  Also sets what
# every training script uses: PYTHONPATH (this checkout's src unless TABLE_SRC says otherwise),
# $ck (the checkpoints) and $data (the labelled sets); neither is in git (training/README.md).
export PYTHONPATH="${TABLE_SRC:-$PWD/src}"
export BENCH="${BENCH:-training/bench.txt}"
ck=training/checkpoints
data=training/data
bench() {
  local cmd="python3 -m table bench strength $*"
  if [ -f "$BENCH" ] && grep -qxF "\$ $cmd" "$BENCH"; then
    return 0
  fi
  local out
  out="$($cmd)" || { echo "not recorded, it failed: $cmd" >&2; return 1; }
  printf '$ %s\n%s\n' "$cmd" "$out" >> "$BENCH"
}
