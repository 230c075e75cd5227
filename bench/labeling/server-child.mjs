// The labeling server in its own process for bench/labeling: a data folder with one text task of
// LINES lines, LABELERS labelers; prints {url, tokens, dataDir} as one JSON line, serves until killed.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

// BENCH_LABELING_DIST: another build of the package to serve (e.g. a copy of an older commit's
// dist/), so before and after can be measured back to back on the same machine.
const dist = process.env.BENCH_LABELING_DIST;
const { createLabelingServer } = await import(dist ? pathToFileURL(join(dist, "index.js")).href : "@yardstick/labeling");

const [lines, labelers] = process.argv.slice(2, 4).map(Number);
const fsync = process.argv[4] !== "no-fsync";
const dataDir = mkdtempSync(join(tmpdir(), "yardstick-bench-label-"));
for (const sub of ["tasks", "datasets", "results"]) mkdirSync(join(dataDir, sub));
const rows = [JSON.stringify({ total_samples: lines, sample_type: "text", samples_per_line: 1 })];
for (let i = 0; i < lines; i++) rows.push(JSON.stringify([{ type: "text", id: `s${i}`, metadata: { n: String(i) }, text: `sample text number ${i}` }]));
writeFileSync(join(dataDir, "datasets", "bench.jsonl"), `${rows.join("\n")}\n`);
writeFileSync(
  join(dataDir, "tasks", "bench.json"),
  JSON.stringify({
    taskInfo: { name: "Bench", description: "d", instructions: "i" },
    presentation: { type: "single", displayType: "standard" },
    feedback: {
      verdict: { type: "select", description: "ok?", options: [{ label: "Good", value: "good" }, { label: "Bad", value: "bad" }] },
      score: { type: "numeric", description: "score", min: 1, max: 5, step: 1 },
    },
    dataset: "bench.jsonl",
    results: "bench_results.jsonl",
  }),
);
const server = createLabelingServer({ dataDir, adminToken: "bench-admin-token-123456", fsync });
const tokens = Array.from({ length: labelers }, (_, i) => server.store.addLabeler(`labeler${i}`));
const url = await server.listen(0, "127.0.0.1");
process.stdout.write(`${JSON.stringify({ url, tokens, dataDir })}\n`);
process.on("SIGTERM", async () => {
  await server.close();
  process.exit(0);
});
