#!/bin/sh
# Seeds every target's corpus (fuzz/corpus/TARGET) from sample-graphs/ and small generated graphs in
# every format, with a grail binary (default: target/debug/grail; build it first).
set -eu
cd "$(dirname "$0")/.."
GRAIL=${GRAIL:-target/debug/grail}
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
cp sample-graphs/lesson.gra sample-graphs/tiny-cycles.txt "$seeds/"
for spec in digraph:n=40,deg=2,seed=1 chain:n=12 tree:n=30,arity=3; do
    name=$(echo "$spec" | tr ':,=' '___')
    for to in edge-list gra matrix-market weighted header; do
        "$GRAIL" gen "$spec" --out "$seeds/$name.$to" --to "$to" > /dev/null
        "$GRAIL" gen "$spec" --out "$seeds/$name.$to.gz" --to "$to" > /dev/null
    done
    "$GRAIL" convert "$seeds/$name.gra" "$seeds/$name.grail" > /dev/null
    "$GRAIL" label "$seeds/$name.gra" --out "$seeds/$name.grailidx" > /dev/null
done
printf '# queries\n0 1 1\n2 3\n\n%% c\n7 0 0\n' > "$seeds/queries.txt"
# Runs of blank lines before, between and after the data, and hub lines (a vertex with hundreds of
# children on one `.gra` line).
blanks=$(printf '%040d' 0 | tr 0 '\n'; echo x)
blanks=${blanks%x}
printf '%s0 1\n%s1 2\n%s' "$blanks" "$blanks" "$blanks" > "$seeds/blank-lines.edge-list"
printf '%sgraph_for_greach\n3\n0: 1 2 #\n1: 2 #\n2: #\n%s' "$blanks" "$blanks" > "$seeds/blank-lines.gra"
printf '%s3 2\n%s0 1\n \n1 2\n%s' "$blanks" "$blanks" "$blanks" > "$seeds/blank-lines.header"
gzip -c "$seeds/blank-lines.edge-list" > "$seeds/blank-lines.edge-list.gz"
# Runs of comment lines of both kinds among blank ones (the readers hold them as counts), and `.gra`
# lines padded with runs of spaces.
comments=$(i=0; while [ $i -lt 20 ]; do printf '# a comment\n\n%% d\n'; i=$((i + 1)); done; echo x)
comments=${comments%x}
printf '%s0 1\n%s1 2\n%s' "$comments" "$comments" "$comments" > "$seeds/comment-lines.edge-list"
printf '%%%%MatrixMarket matrix coordinate pattern general\n%s3 3 2\n1 2\n%s2 3\n' "$comments" "$comments" > "$seeds/comment-lines.mtx"
printf 'source,target\n%salice,bob\n%sbob,carol\n' "$comments" "$comments" > "$seeds/comment-lines.csv"
printf '3 2\n%s0 1\n%s1 2\n' "$comments" "$comments" > "$seeds/comment-lines.header"
printf 'graph_for_greach\n3\n0:  1   2 \t #  \n1: 2    #\n2:#\n' > "$seeds/padded.gra"
gzip -c "$seeds/comment-lines.edge-list" > "$seeds/comment-lines.edge-list.gz"
{
    printf 'graph_for_greach\n301\n0:'
    i=1; while [ $i -le 300 ]; do printf ' %d' $i; i=$((i + 1)); done
    printf ' #\n'
    i=1; while [ $i -le 300 ]; do printf '%d: #\n' $i; i=$((i + 1)); done
} > "$seeds/hub.gra"
gzip -c "$seeds/hub.gra" > "$seeds/hub.gra.gz"
for target in sniffed edge_list gra matrix_market weighted header gzip file grail index queries; do
    mkdir -p "fuzz/corpus/$target"
    case $target in
        gzip) cp "$seeds"/*.gz "fuzz/corpus/$target/" ;;
        grail) cp "$seeds"/*.grail "fuzz/corpus/$target/" ;;
        index) cp "$seeds"/*.grailidx "fuzz/corpus/$target/" ;;
        queries) cp "$seeds/queries.txt" "$seeds"/*.edge-list "fuzz/corpus/$target/" ;;
        file) cp "$seeds"/* "fuzz/corpus/$target/" ;;
        *) for f in "$seeds"/*; do case $f in *.gz|*.grail|*.grailidx) ;; *) cp "$f" "fuzz/corpus/$target/" ;; esac; done ;;
    esac
done
