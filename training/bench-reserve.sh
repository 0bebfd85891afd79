#!/usr/bin/env bash
# Issue 50: the strength figures of docs/strength.md's Race / Dutch / Acey-Deucey section.
# Each line of training/bench-reserve.txt is one `table bench strength` result.
# Usage: nohup nice -n 10 bash training/bench-reserve.sh GAMES "A B" ... >> training/bench-reserve.txt 2>&1 &
set -euo pipefail
export PYTHONPATH=src
games=$1; shift
for variant in race dutch acey-deucey; do
    for pair in "$@"; do
        # shellcheck disable=SC2086
        .venv/bin/python -m table bench strength --variant "$variant" $pair --games "$games"
    done
done
