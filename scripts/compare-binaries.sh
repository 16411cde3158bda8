#!/usr/bin/env bash
# Two builds must give the same labels and answers: label digests (every back end given), query
# answers on the data sets' query files, and the GPU batch, side by side, with times.
#   scripts/compare-binaries.sh OLD_GRAIL NEW_GRAIL DATA_DIR OUT_DIR [BACKENDS]
# DATA_DIR holds grail/*.gra[.gz] and queries/*.test.gz (as ../shared/datasets does). BACKENDS
# defaults to "dfs cpu gpu" (a back end the machine lacks falls back, and the JSON says so).
# Prints one line per check and "DIFFERENT" wherever the builds disagree; exits non-zero then.
set -u
shopt -s nullglob
old=$1 new=$2 data=$3 out=$4 backends=${5:-dfs cpu gpu}
mkdir -p "$out"
status=0
# A field of a JSON report, or "failed" when the command printed none.
field() {
  python3 -c "import json,sys
try: print(json.load(open(sys.argv[1])).get(sys.argv[2]))
except Exception: print('failed')" "$1" "$2"
}
same() { # what, old value, new value
  if [[ "$2 $3" == *failed* ]]; then echo "FAILED     $1: $2 vs $3"; status=1; return; fi
  if [ "$2" = "$3" ]; then echo "same       $1: $2"; else echo "DIFFERENT  $1: $2 vs $3"; status=1; fi
}
for g in "$data"/grail/*.gra "$data"/grail/*.gra.gz; do
  name=$(basename "$g"); name=${name%.gz}; name=${name%.gra}
  for backend in $backends; do
    for which in old new; do
      bin=$old; [ $which = new ] && bin=$new
      "$bin" label "$g" --dims 5 --backend "$backend" --json > "$out/$name-$backend-$which.json" 2>/dev/null
    done
    same "$name $backend digest" "$(field "$out/$name-$backend-old.json" labels_digest)" \
      "$(field "$out/$name-$backend-new.json" labels_digest)"
    echo "           ran on $(field "$out/$name-$backend-new.json" backend) (fallback: $(field "$out/$name-$backend-new.json" fallback))"
  done
  q=$(ls "$data"/queries/"$name"*.test.gz 2>/dev/null | head -1)
  [ -n "$q" ] || continue
  for which in old new; do
    bin=$old; [ $which = new ] && bin=$new
    "$bin" query "$g" --file "$q" --json > "$out/$name-q-$which.json" 2>/dev/null
  done
  same "$name queries positives/mismatches" \
    "$(field "$out/$name-q-old.json" positives)/$(field "$out/$name-q-old.json" mismatches)" \
    "$(field "$out/$name-q-new.json" positives)/$(field "$out/$name-q-new.json" mismatches)"
  echo "           query seconds old $(field "$out/$name-q-old.json" query_seconds), new $(field "$out/$name-q-new.json" query_seconds)"
done
exit $status
