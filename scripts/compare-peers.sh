#!/usr/bin/env bash
# Index build time, query time and peak memory of grail against four published reachability
# indexes, on the same graphs and query files, one thread each. Prints one markdown table.
#
#   scripts/compare-peers.sh GRAPH QUERIES [GRAPH QUERIES ...]
#
# GRAPH: a file grail reads whose vertex ids are 0..n-1 (the peers get it converted, numbered
# densely); QUERIES: `u v [expected]` per line, gzip allowed. BFL and FERRARI take DAGs only and are
# skipped on other graphs; the data sets' `*_dag_uniq`, `*.scc` and `*_sub_*` files are DAGs.
#
# The peers are cloned (shallow, at a pinned commit) and built in a scratch folder outside this
# repository, never inside it:
#   BFL      https://github.com/BoleynSu/bfl         main.cpp -O3 -DK=5 -DD=1600
#   O'Reach  https://github.com/o-reach/O-Reach      cmake; --pbibfs (pruned bidirectional BFS fall-back)
#   FERRARI  https://github.com/steps/Ferrari        make; -k 5 -s 32
#   GRAIL    https://github.com/zakimjz/grail        make; -dim 5 -t -2 -ltype 1
# O'Reach and FERRARI need Boost headers, O'Reach needs CMake (Debian: apt install cmake libboost-dev).
# A peer that cannot be fetched or built is reported as such in the table; the others still run.
#
# Environment:
#   GRAIL       the grail binary (default: target/release/grail, built with cargo if absent)
#   PEERS_DIR   scratch folder (default: ${TMPDIR:-/tmp}/grail-peers)
#   PEERS_SRC   a folder holding already-cloned sources bfl/, O-Reach/, Ferrari/, grail/: copied into
#               PEERS_DIR instead of cloning (no network)
#   DIMS        grail's dimensions (default 2,5); REPEAT grail's runs per setting (default 3)
#
# Timing: grail's index time is `grail bench`'s label time (labels plus the query index of its
# default rules), its query time one batch of the whole file, best of REPEAT runs in one process,
# with the first of those runs in brackets (a fresh process's one build, as each peer's is); peak
# memory the measuring process's own. Each peer runs once and times its own index build and its own query
# loop as it prints them; its peak memory is /usr/bin/time's maximum resident set. Every process is
# pinned to one core with taskset where it exists.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
peers=${PEERS_DIR:-${TMPDIR:-/tmp}/grail-peers}
dims=${DIMS:-2,5}
repeat=${REPEAT:-3}

if [ $# -lt 2 ] || [ $(($# % 2)) -ne 0 ]; then
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
case "$peers/" in
  "$repo"/*) echo "PEERS_DIR must be outside the repository ($repo)" >&2; exit 2 ;;
esac

grail=${GRAIL:-$repo/target/release/grail}
if [ ! -x "$grail" ]; then
  (cd "$repo" && cargo build --release --quiet)
fi

pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -v)

mkdir -p "$peers/src" "$peers/work"
log="$peers/build.log"
: >"$log"

# name repository commit
sources=(
  "bfl https://github.com/BoleynSu/bfl 0c837927a3f2fa3fc633abeedd56cea6e75d3a9a"
  "O-Reach https://github.com/o-reach/O-Reach 78b3e326bbb021b7ee225ab605a4cdd074fa1d93"
  "Ferrari https://github.com/steps/Ferrari 2c4ca4b8323a2e6532066c98605e48a133bc4e01"
  "grail https://github.com/zakimjz/grail c13a7364fbc185841fc6277cd295acf33a7188f0"
)

# Brings one peer's sources to $peers/src/NAME; returns non-zero when it cannot.
fetch() {
  local name=$1 url=$2 commit=$3 dir="$peers/src/$1"
  [ -d "$dir" ] && return 0
  if [ -n "${PEERS_SRC:-}" ]; then
    [ -d "$PEERS_SRC/$name" ] || { echo "$name: not in PEERS_SRC ($PEERS_SRC)" >>"$log"; return 1; }
    # Without the repository's own .git or the GRAIL repository's data-set downloads.
    mkdir -p "$dir" && (cd "$PEERS_SRC/$name" && tar --exclude=.git --exclude=Downloads -cf - .) | (cd "$dir" && tar -xf -)
    return 0
  fi
  # Shallow, at the pinned commit; blobs over 1 MB (GRAIL's data-set downloads) are not fetched.
  git init -q "$dir" &&
    git -C "$dir" fetch -q --depth 1 --filter=blob:limit=1m "$url" "$commit" >>"$log" 2>&1 &&
    git -C "$dir" -c advice.detachedHead=false checkout -q FETCH_HEAD -- . ':!Downloads' >>"$log" 2>&1 ||
    { echo "$name: cannot fetch $url at $commit" >>"$log"; rm -rf "$dir"; return 1; }
}

# Builds one peer; prints nothing, leaves the binary at the path `binary NAME` names.
binary() {
  case $1 in
    bfl) echo "$peers/src/bfl/bfl" ;;
    O-Reach) echo "$peers/src/O-Reach/build/reachability" ;;
    Ferrari) echo "$peers/src/Ferrari/ferrari" ;;
    grail) echo "$peers/src/grail/grail" ;;
  esac
}
build() {
  local dir="$peers/src/$1"
  [ -x "$(binary "$1")" ] && return 0
  echo "== building $1" >>"$log"
  case $1 in
    bfl) g++ "$dir/main.cpp" -O3 -std=c++11 -DK=5 -DD=1600 -o "$dir/bfl" ;;
    O-Reach) mkdir -p "$dir/build" && (cd "$dir/build" && cmake .. -DCMAKE_BUILD_TYPE=Release && make -j"$(nproc)" reachability) ;;
    Ferrari) make -C "$dir" -j"$(nproc)" ferrari ;;
    grail) make -C "$dir" grail ;;
  esac >>"$log" 2>&1
}

declare -A ready
for entry in "${sources[@]}"; do
  read -r name url commit <<<"$entry"
  if fetch "$name" "$url" "$commit" && build "$name"; then
    ready[$name]=yes
  else
    ready[$name]=no
    echo "note: $name could not be fetched or built here; see $log" >&2
  fi
done

# Two decimals for a number; anything else as it is.
two() { awk -v x="$1" 'BEGIN { if (x ~ /^[0-9.]+$/) printf "%.2f", x; else printf "%s", x }'; }
ms() { awk -v s="$1" 'BEGIN { printf "%.2f", s * 1000 }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
peak_kib() { sed -n 's/.*Maximum resident set size (kbytes): *//p' "$1"; }

# One table row: graph tool setting index_ms query_ms peak_mib yes agrees
row() { printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$@"; }

echo "| graph, queries | tool | setting | index ms | query ms | peak MiB | yes | agrees |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"

while [ $# -gt 0 ]; do
  graph=$1 queries=$2
  shift 2
  g=$(basename "$graph")
  g=${g%.gz}
  g=${g%.*}
  w="$peers/work/$g"
  mkdir -p "$w"
  q=$(basename "$queries")
  shown_graph="$g, ${q%.gz}"

  # The graph as each peer reads it: .gra (BFL, GRAIL), `n m` + adjacency lines (FERRARI),
  # METIS with 1-based ids (O'Reach); the queries unzipped with a third column.
  "$grail" convert "$graph" "$w/graph.gra" --to gra >/dev/null
  awk 'NR == 1 && $1 == "graph_for_greach" { next }
       !n { n = $1; next }
       { sub(":", "", $1); out = $1; for (i = 2; i <= NF && $i != "#"; i++) { out = out " " $i; m++ }
         line[$1] = out }
       END { print n, m; for (v = 0; v < n; v++) print (v in line ? line[v] : v) }' \
    "$w/graph.gra" >"$w/graph.ferrari"
  awk 'NR == 1 && $1 == "graph_for_greach" { next }
       !n { n = $1; next }
       { sub(":", "", $1); out = ""; for (i = 2; i <= NF && $i != "#"; i++) { out = out (out == "" ? "" : " ") ($i + 1); m++ }
         line[$1] = out }
       END { print n, m; for (v = 0; v < n; v++) print line[v] }' \
    "$w/graph.gra" >"$w/graph.metis"
  gzip -dcf "$queries" | awk 'NF >= 2 { print $1, $2, (NF >= 3 ? $3 : -1) }' >"$w/queries.txt"
  # O'Reach names a file's query type by its suffix; `.txt` alone is "random".
  cp "$w/queries.txt" "$w/queries.query.txt"
  # GRAIL reads queries until end of file, so a final newline would repeat the last query.
  head -c -1 "$w/queries.txt" >"$w/queries.noeol.txt"

  dag=$("$grail" info "$graph" --json | awk -F'[:,]' '/"vertices"/ { v = $2 } /"components"/ { c = $2 } END { print (v == c ? "yes" : "no") }')

  want=""
  json="$w/grail.json"
  "${pin[@]}" "$grail" bench "$graph" --queries "$queries" --thread-counts 1 --dims "$dims" \
    --repeat "$repeat" --json >"$json" 2>"$w/grail.err"
  while read -r d label first qs pos peak; do
    row "$shown_graph" grail "d = $d, every rule" "$(ms "$label") ($(ms "$first"))" "$(ms "$qs")" \
      "$(mib "$((peak / 1024))")" "$pos" "reference"
    want=$pos
  done < <(python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["rows"]:
    print(r["dims"], r["label_seconds"], r["first_label_seconds"], r["query_seconds"], r["positives"], r["peak_memory_bytes"] or 0)
' "$json")

  # run NAME SETTING INDEX_PATTERN QUERY_PATTERN YES_PATTERN COMMAND...: runs a peer once and
  # reads its index time (ms), query time (ms) and yes count from what it prints.
  run() {
    local name=$1 setting=$2 out="$w/$1.out" tm="$w/$1.time" shown
    shift 2
    case $name in bfl) shown=BFL ;; O-Reach) shown="O'Reach" ;; Ferrari) shown=FERRARI ;; grail) shown="GRAIL (authors' code)" ;; esac
    if [ "${ready[$name]}" != yes ]; then
      row "$shown_graph" "$shown" "$setting" "not built" "" "" "" ""
      return
    fi
    if [ "$dag" != yes ] && { [ "$name" = bfl ] || [ "$name" = Ferrari ]; }; then
      row "$shown_graph" "$shown" "$setting" "needs a DAG" "" "" "" ""
      return
    fi
    local cmd=("${pin[@]}" "$@")
    [ ${#timer[@]} -gt 0 ] && cmd=("${timer[@]}" -o "$tm" "${cmd[@]}")
    # FERRARI prints every edge it reads (`s -> t`): left out of its log.
    if ! "${cmd[@]}" 2>&1 | grep -v -- ' -> ' >"$out"; then
      row "$shown_graph" "$shown" "$setting" "failed: see $out" "" "" "" ""
      return
    fi
    local index query yes peak
    case $name in
      bfl)
        # In seconds with three decimals: below 0.5 ms it reads 0.000.
        index=$(awk '/^index time:/ { sub("s", "", $3); if ($3 + 0 == 0) print "< 0.5"; else print $3 * 1000 }' "$out")
        query=$(awk '/^query time:/ { sub("ms", "", $3); print $3 }' "$out")
        yes=$(awk '/^reachable:/ { print $2 }' "$out") ;;
      O-Reach)
        index=$(awk '/^init took/ { print $3 }' "$out")
        query=$(awk '/total for queries/ { printf "%.2f", $NF / 1000 }' "$out")
        yes=$(awk '/number of successful queries/ { print $NF }' "$out") ;;
      Ferrari)
        index=$(sed -n 's/^assigned bitmaps (\(.*\) ms)/\1/p' "$out")
        query=$(sed -n 's/^query processing time (\(.*\) ms)/\1/p' "$out")
        yes=$(awk '/ reachable$/ { split($1, a, "/"); print a[1] }' "$out") ;;
      grail)
        index=$(sed -n 's/^#construction time:\(.*\) (ms)/\1/p' "$out")
        query=$(sed -n 's/^#total query running time:\(.*\) (ms)/\1/p' "$out")
        # Its COMPAR line breaks after the memory figure: the yes count is the next line's 5th field.
        yes=$(awk -F'\t' '/^COMPAR:/ { getline; print $5 }' "$out") ;;
    esac
    peak=""
    [ -s "$tm" ] && peak=$(mib "$(peak_kib "$tm")")
    local agrees=no
    [ -n "$yes" ] && [ "$yes" = "$want" ] && agrees=yes
    row "$shown_graph" "$shown" "$setting" "$(two "$index")" "$(two "$query")" "$peak" "$yes" "$agrees"
  }

  run bfl "K = 5, D = 1600" "$(binary bfl)" "$w/graph.gra" "$w/queries.txt"
  run O-Reach "--pbibfs" "$(binary O-Reach)" "$w/graph.metis" --pbibfs --queries "$w/queries.query.txt"
  run Ferrari "-k 5 -s 32" "$(binary Ferrari)" -g "$w/graph.ferrari" -q "$w/queries.txt" -k 5 -s 32
  run grail "GRAIL, -dim 5 -t -2 -ltype 1" "$(binary grail)" "$w/graph.gra" -test "$w/queries.noeol.txt" -dim 5 -t -2 -ltype 1
done
