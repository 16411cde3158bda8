#!/usr/bin/env bash
# On a GPU machine: the GPU self-test, then GPU-vs-CPU timings.
#   scripts/gpu-check.sh GRAIL_BINARY DATA_DIR OUT_DIR [quick|medium|full]
# DATA_DIR holds the data sets' graph files and query files. quick: self-test only; medium: plus the
# data sets and a 1M-vertex, degree-50 random DAG; full: plus the 1.5M-vertex, degree-100 one.
# WORDS lists the GPU batch widths to time (default "8 16").
set -u
grail=$1 data=$2 out=$3 mode=${4:-full}
gen=$(mktemp -d)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "cores: $(nproc)"
echo "== selftest"
mkdir -p "$gen/graphs"
cp "$data"/*.gra "$data"/*.gra.gz "$gen/graphs/" 2>/dev/null
$grail selftest --gpu --datasets "$gen/graphs" || echo "SELFTEST FAILED"
[ "$mode" = quick ] && exit 0
echo "== generate"
$grail gen random:n=1000000,deg=50,seed=7 --out "$gen/r1m50.gra"
[ "$mode" = full ] && $grail gen random:n=1500000,deg=100,seed=7 --out "$gen/r15m100.gra"
summary='import json,sys
d=json.load(open(sys.argv[1]))
print(d["backend"], "label %.3f s" % d["label_seconds"], d["labels_digest"][:12])
phases={}
for p in d["phases"]: phases[p["phase"]]=phases.get(p["phase"],0)+p["seconds"]
print("   ", ", ".join("%s %.3f" % kv for kv in phases.items()))'
for g in "$data/uniprotenc_22m.scc.gra.gz" "$data/citeseer.scc.gra.gz" "$gen"/*.gra; do
  name=$(basename "$g")
  for backend in dfs cpu gpu; do
    echo "== label $name $backend"
    if $grail label "$g" --dims 5 --backend $backend --json > "$out/label-$name-$backend.json"; then
      python3 -c "$summary" "$out/label-$name-$backend.json"
    fi
  done
  echo "== 1M random queries on $name"
  $grail query "$g" --random 1000000 --query-seed 5 --json > "$out/q-$name-cpu.json" &&
    python3 -c "import json; d=json.load(open('$out/q-$name-cpu.json')); print('cpu', d['threads'], 'threads: %.4f s' % d['query_seconds'], 'positives', d['positives'], d['by_rule'])"
  for w in ${WORDS:-8 16}; do
    $grail query "$g" --random 1000000 --query-seed 5 --gpu --words $w --json > "$out/q-$name-gpu$w.json" &&
      python3 -c "import json; d=json.load(open('$out/q-$name-gpu$w.json')); print('gpu W=$w: filter %.4f s, gpu %.4f s, sent %d, positives %d, levels %d' % (d['cpu_filter_seconds'], d['gpu_seconds'], d['sent_to_gpu'], d['positives'], d['levels']))"
  done
done
