#!/usr/bin/env bash
# Seconds from starting the explorer on a graph to its first answered query, as a user who types
# at once would see them: starts `grail GRAPH` in a detached tmux session (80x24), waits until the
# Graph tab shows the file, types `3`, `/U V`, Enter, and waits until the Query tab shows a verdict.
#   scripts/first-answer.sh GRAIL GRAPH U V [RUNS]
# Prints each run's time and, last, the median. Needs tmux.
set -u
grail=$1 graph=$2 u=$3 v=$4 runs=${5:-5}
socket="grail-first-answer-$$"
now() { date +%s.%N; }
screen() { tmux -L "$socket" capture-pane -p 2>/dev/null; }
# Waits (at most 60 s) until the screen contains $1.
wait_for() {
  for _ in $(seq 1 3000); do
    screen | grep -q -- "$1" && return 0
    sleep 0.02
  done
  echo "timed out waiting for '$1'" >&2
  screen >&2
  return 1
}
times=()
for run in $(seq 1 "$runs"); do
  tmux -L "$socket" kill-server 2>/dev/null && sleep 0.2
  start=$(now)
  tmux -L "$socket" new-session -d -x 80 -y 24 "$grail $graph"
  wait_for "load time" || exit 1
  tmux -L "$socket" send-keys 3 / "$u $v" Enter
  wait_for "decided by" || exit 1
  t=$(python3 -c "print(f'{$(now) - $start:.3f}')")
  echo "run $run: ${t} s"
  times+=("$t")
done
tmux -L "$socket" kill-server 2>/dev/null
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print "median: " a[int((NR+1)/2)] " s"}'
