#!/bin/bash
# usage: bf.sh 20m  -> time until listening, CPU of logger
D=$(mktemp -d); NODE=$(npx node -e "console.log(process.execPath)")
export SIM=on SIM_BENCH_RATE_HZ=1000 SIM_BENCH_CHANNELS=10 SIM_SEED=3 ADMIN_PASSWORD=x1234567890abcQ
start=$(date +%s.%N)
$NODE logger/main.ts --port 0 --data $D --backfill $1 > $D.out 2>&1 &
P=$!
until grep -q "listening" $D.out 2>/dev/null; do sleep 0.1; kill -0 $P || break; done
end=$(date +%s.%N)
T=$(awk '{print ($14+$15)/100}' /proc/$P/stat)
grep -E "backfill: done" $D.out
echo "listening after $(echo "$end - $start" | bc) s, logger CPU $T s"
kill $P; wait $P 2>/dev/null; rm -rf $D $D.out
