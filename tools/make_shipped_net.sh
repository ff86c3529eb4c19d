#!/usr/bin/env bash
# Make the shipped net (smear_sim/data/net.npz and net.json) from nothing: the search's data from three tables, a
# first net, then rounds of expert iteration (the net at the table, the search labelling what it met, the net trained
# again on all the data). docs/learned.md ("The shipped net") says what each step took and how strong each round was;
# a round is shipped only if it won more games than the one before.
#
#   tools/make_shipped_net.sh [RUNS_DIR]        # default runs/net; needs pip install -e '.[train]'
#
# Every step is deterministic by its seed, and a data step interrupted and run again resumes where it stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-runs/net}
PY=${PYTHON:-.venv/bin/python}
TRAIN=(--hidden 128 --epochs 20 --seed 1 --rank-weight 0.1)
SHIPPED_ROUND=round1  # the last round that won more games than the one before (docs/learned.md)

# Round 0: positions from heuristic, equity and expert tables.
$PY tools/make_net_data.py "$RUNS/heuristic" --hands 12000 --worlds 16 --policy heuristic --seed 1
$PY tools/make_net_data.py "$RUNS/equity" --hands 3000 --worlds 16 --policy equity,heuristic --seed 2
$PY tools/make_net_data.py "$RUNS/expert" --hands 1500 --worlds 16 --policy expert:16 --seed 3
folders=("$RUNS/heuristic" "$RUNS/equity" "$RUNS/expert")
$PY tools/train_net.py "${folders[@]}" --out "$RUNS/round0" "${TRAIN[@]}"

# Rounds 1 and 2: the last round's net plays heuristic; the search labels its positions.
previous=round0
for round in 1 2; do
    SMEAR_SIM_NET="$RUNS/$previous/net.npz" $PY tools/make_net_data.py "$RUNS/net$round" --hands 3000 --worlds 16 \
        --policy net,heuristic --seed $((round + 3))
    folders+=("$RUNS/net$round")
    $PY tools/train_net.py "${folders[@]}" --out "$RUNS/round$round" "${TRAIN[@]}"
    previous=round$round
done

cp "$RUNS/$SHIPPED_ROUND/net.npz" "$RUNS/$SHIPPED_ROUND/net.json" smear_sim/data/
