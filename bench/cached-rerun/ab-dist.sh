#!/bin/bash
# A/B of the fully cached re-run between two builds of some modules, run side by side in turns.
# OLD and NEW are overlays of compiled files (each a tree with packages/<pkg>/dist/... inside), e.g.
# made by checking the changed sources out at each revision, `npx tsc --build tsconfig.build.json`,
# and copying the changed dist files. Prints wall time, samples/s, peak RSS and the session's phases
# of each run; leaves NEW in place.
# Usage: bench/cached-rerun/ab-dist.sh OLD NEW [N=100000] [pairs=3]
set -euo pipefail
OLD=$1; NEW=$2; N=${3:-100000}; PAIRS=${4:-3}
cd "$(dirname "$0")/../.."
DIR=$(mktemp -d /tmp/yardstick-ab-XXXX)
node -e "import('./bench/throughput/make-task.mjs').then((m) => m.makeTask('$DIR', $N))"
node packages/testing/dist/dev-server-cli.js --port 0 --policy "fixed:Answer: Positive" > "$DIR/url.txt" &
SERVER=$!
trap 'kill $SERVER; rm -rf "$DIR"' EXIT
until [ -s "$DIR/url.txt" ]; do sleep 0.1; done
URL=$(head -1 "$DIR/url.txt")
node bench/throughput/harness-child.mjs "$DIR" "$URL" "$DIR/first" 64 "$DIR/cache" --cache > /dev/null 2>&1
for _ in $(seq "$PAIRS"); do
  for side in OLD NEW; do
    cp -r "${!side}/packages/." packages/
    rm -rf "$DIR/out"
    RESULT=$(node bench/throughput/harness-child.mjs "$DIR" "$URL" "$DIR/out" 64 "$DIR/cache" --cache 2>/dev/null)
    node -e "
      const r = JSON.parse(process.argv[1]);
      const phases = require('$DIR/out/run-stats.json').sessions.at(-1).phases;
      console.log('$side', r.seconds.toFixed(2) + ' s', Math.round($N / r.seconds) + ' samples/s', Math.round(r.maxRssMB) + ' MB', JSON.stringify(phases));
    " "$RESULT"
  done
done
