#!/usr/bin/env node
// Runs every test with vitest and ends with the plain line "N passed, N failed" that CI reads.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "test-results.json");
rmSync(out, { force: true });
const r = spawnSync(
  process.execPath,
  [join(root, "node_modules/vitest/vitest.mjs"), "run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, ...process.argv.slice(2)],
  { cwd: root, stdio: "inherit" },
);
let passed = 0;
let failed = 0;
if (existsSync(out)) {
  const report = JSON.parse(readFileSync(out, "utf8"));
  passed = report.numPassedTests ?? 0;
  // A test file that fails to load has no failed tests of its own: count it as one failure.
  const brokenFiles = (report.testResults ?? []).filter((f) => f.status === "failed" && (f.assertionResults ?? []).length === 0).length;
  failed = (report.numFailedTests ?? 0) + brokenFiles;
} else {
  failed = 1;
}
const status = r.status === 0 && failed === 0 && passed > 0 ? 0 : 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(status);
