#!/usr/bin/env node
import { tuneHeapForBatchRuns } from "./heap-tuning.js";
import { processIO } from "./io.js";
import { main } from "./main.js";

tuneHeapForBatchRuns();

main(process.argv.slice(2), processIO()).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // main() already reports every error; this is a last line of defence.
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
