#!/usr/bin/env node
// Installs what the project needs on a fresh machine: npm packages from the lockfile (building
// better-sqlite3 from source when no prebuilt binary can be fetched). Idempotent and quiet when
// everything is already in place, so `npm run demo` and `npm test` can always call it first.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const lock = join(root, "package-lock.json");
const installed = join(root, "node_modules", ".package-lock.json");

function run(cmd, args) {
  console.log(`[setup] ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`[setup] ${cmd} ${args.join(" ")} failed with exit code ${r.status}`);
    process.exit(r.status ?? 1);
  }
}

// A fresh checkout (CI's) installs with `npm ci`: exactly the committed lockfile, which
// scripts/complete-lockfile.mjs keeps acceptable to it. If `npm ci` refuses the lockfile (a
// package.json changed without it), setup says so and falls back to `npm install` so the tests
// still run; scripts/lockfile.test.mjs then fails on the same problem. An existing install whose
// lockfile changed is brought up to date with `npm install`.
const npmFlags = ["--no-audit", "--no-fund", "--loglevel=error"];
const stale = !existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs;
if (!existsSync(join(root, "node_modules"))) {
  console.log(`[setup] npm ci ${npmFlags.join(" ")}`);
  const ci = spawnSync("npm", ["ci", ...npmFlags], { cwd: root, stdio: "inherit" });
  if (ci.status !== 0) {
    console.error("[setup] npm ci refused package-lock.json; installing with npm install instead (fix: npm install && node scripts/complete-lockfile.mjs, then commit package-lock.json)");
    run("npm", ["install", ...npmFlags]);
  }
} else if (process.env.CI === "true" || stale) {
  run("npm", ["install", ...npmFlags]);
}

const sqlite = spawnSync(process.execPath, ["-e", "new (require('better-sqlite3'))(':memory:').close()"], { cwd: root });
if (sqlite.status !== 0) run("npm", ["rebuild", "better-sqlite3"]);

// The report's browser tests drive Debian's Chromium (playwright-core downloads no browser here).
// Installed with apt when missing; apt-get update runs once, right before the install.
const chromium = "/usr/bin/chromium";
if (!existsSync(chromium)) {
  const hasApt = spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!hasApt) {
    console.warn(`[setup] ${chromium} is missing and apt-get is not available: install Chromium yourself to run the report's browser tests`);
  } else if (!isRoot) {
    console.warn(`[setup] ${chromium} is missing: run "sudo apt-get update && sudo apt-get install -y chromium" to run the report's browser tests`);
  } else {
    process.env.DEBIAN_FRONTEND ??= "noninteractive";
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "chromium"]);
  }
}
