#!/usr/bin/env node
// Whole-process, side by side: upstream's Python generator (QData/TextAttack-PromptAug
// `datasets/dataset_generator.py`, see shared/spec/spatial.md for the commit) and
// `yardstick spatial generate`, both writing N canvases as one indented JSON file each
// (`data/canvas_{n}_{i}.json`), start-up included. The runs alternate (which side goes first flips
// each repeat) so both see the same machine load; the table gives every run, the medians and the
// ratio of the median rates. Build first: `npx tsc --build packages/runner packages/spatial`.
//
// Usage: node bench/spatial/whole-process.mjs --original DIR [--python PY] [--count N]
//          [--shapes 3,7] [--repeats R] [--dir PARENT]   (PARENT: where both write; default /dev/shm)
//   DIR: a checkout of the original (the folder holding datasets/), never inside this repository;
//        also read from SPATIAL_ORIGINAL. PY: the Python with shapely, numpy and matplotlib
//        (default /usr/bin/python3: Debian's python3-shapely, python3-numpy, python3-matplotlib).
//
// The original sets no seed, and its transitivity task loops forever on the rare canvas where no
// shape has two relations on one axis (shared/spec/spatial.md §5.3, §11): at 50,000 3-shape canvases
// a run hangs about every other time. So it runs unchanged under `random.seed(S)` (a two-line
// runpy wrapper, the only difference) to be reproducible, and a run that writes no file for
// --stall seconds is stopped, reported as hung at its file count, and retried with the next seed.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    original: { type: "string", default: process.env.SPATIAL_ORIGINAL },
    python: { type: "string", default: "/usr/bin/python3" },
    count: { type: "string", default: "50000" },
    shapes: { type: "string", default: "3,7" },
    repeats: { type: "string", default: "3" },
    // tmpfs by default: on this shared VM, file creation on the ext4 disk cost 0.1–0.6 ms of system
    // time per file depending on other jobs, which measured the disk rather than either generator.
    dir: { type: "string", default: existsSync("/dev/shm") ? "/dev/shm" : tmpdir() },
    seed: { type: "string", default: "1" },
    stall: { type: "string", default: "20" },
  },
});
if (values.original === undefined) {
  console.error("whole-process.mjs: --original DIR (or SPATIAL_ORIGINAL) is required: the folder holding the original's datasets/");
  process.exit(2);
}
const original = resolve(values.original);
const generator = join(original, "datasets", "dataset_generator.py");
if (!existsSync(generator)) {
  console.error(`whole-process.mjs: ${generator} not found`);
  process.exit(2);
}
const cli = resolve(import.meta.dirname, "../../packages/runner/dist/bin/yardstick.js");
if (!existsSync(cli)) {
  console.error(`whole-process.mjs: ${cli} not found: build first (npx tsc --build packages/runner)`);
  process.exit(2);
}
const count = Number(values.count);
const shapesList = values.shapes.split(",").map(Number);
const repeats = Number(values.repeats);
const timeBin = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

/** Runs a command to completion; wall seconds, and CPU seconds (user + system) when /usr/bin/time exists. */
function timed(cmd, args, options, stalled) {
  return new Promise((resolvePromise, reject) => {
    const argv = timeBin ? ["-f", "__cpu %U %S", cmd, ...args] : args;
    const t0 = performance.now();
    const child = spawn(timeBin ?? cmd, argv, { ...options, stdio: ["ignore", "ignore", "pipe"], detached: true });
    let stderr = "";
    let hung;
    const watchdog = stalled
      ? setInterval(() => {
          hung = stalled();
          if (hung !== undefined) process.kill(-child.pid, "SIGKILL");
        }, 1000)
      : undefined;
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      clearInterval(watchdog);
      const wall = (performance.now() - t0) / 1000;
      if (hung !== undefined) return resolvePromise({ wall, hung });
      if (code !== 0) return reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}: ${stderr.slice(-2000)}`));
      const m = /__cpu ([\d.]+) ([\d.]+)/.exec(stderr);
      resolvePromise({ wall, cpu: m ? Number(m[1]) + Number(m[2]) : undefined });
    });
  });
}

const SEEDED = "import random, runpy, sys; random.seed(int(sys.argv[1])); sys.argv = sys.argv[2:]; runpy.run_path(sys.argv[0], run_name='__main__')";
let seed = Number(values.seed);
const stallSeconds = Number(values.stall);

/** A watchdog for the original: the file count it stalled at, once no file appeared for --stall seconds. */
function stallWatch(dir) {
  let last = -1;
  let since = performance.now();
  return () => {
    let files = 0;
    try {
      files = readdirSync(join(dir, "data")).length;
    } catch {}
    if (files !== last) {
      last = files;
      since = performance.now();
      return undefined;
    }
    return performance.now() - since > stallSeconds * 1000 ? files : undefined;
  };
}

const sides = {
  // `datasets/` on the path as running the script from it would put it (the generator imports `utils`).
  original: (n, cwd) =>
    timed(
      values.python,
      ["-c", SEEDED, String(seed), generator, String(n), String(count)],
      { cwd, env: { ...process.env, PYTHONPATH: `${join(original, "datasets")}:${original}` } },
      stallWatch(cwd),
    ),
  yardstick: (n, cwd) =>
    timed(process.execPath, [cli, "spatial", "generate", "--shapes", String(n), "--count", String(count), "--out", join(cwd, "data")], { cwd }),
};

/** The same layout on both sides: N files named canvas_{n}_{i}.json with the same top-level and description keys. */
function checkLayout(n, dir) {
  const files = readdirSync(join(dir, "data")).filter((f) => /^canvas_\d+_\d+\.json$/.test(f));
  if (files.length !== count) throw new Error(`${dir}: ${files.length} canvas files, expected ${count}`);
  const first = JSON.parse(readFileSync(join(dir, "data", `canvas_${n}_0.json`), "utf8"));
  return `${Object.keys(first).join(",")} | ${Object.keys(first.descriptions).sort().join(",")} | ${Object.keys(first.questions).sort().join(",")}`;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (x, d = 2) => (x === undefined ? "–" : x.toFixed(d));

console.log(
  `node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? "?"}, ${count} canvases per run, ${repeats} runs per side, output under ${values.dir}`,
);
const summary = [];
for (const n of shapesList) {
  const runs = { original: [], yardstick: [] };
  const layouts = {};
  console.log(`\n${n} shapes\n| run | side | load (1 min) | wall s | CPU s | canvases/s |\n|---|---|---|---|---|---|`);
  for (let r = 0; r < repeats; r++) {
    const order = r % 2 === 0 ? ["original", "yardstick"] : ["yardstick", "original"];
    for (const side of order) {
      // A hung original is retried with the next seed (at most 5 times).
      for (let attempt = 0; attempt < 5; attempt++) {
        const dir = mkdtempSync(join(values.dir, `spatial-whole-${side}-`));
        try {
          const load = loadavg()[0];
          const t = await sides[side](n, dir);
          if (t.hung !== undefined) {
            console.log(`| ${r + 1} | original (seed ${seed}) | ${load.toFixed(2)} | hung after ${t.hung} canvases (no new file for ${stallSeconds} s) | | |`);
            seed++;
            continue;
          }
          layouts[side] = checkLayout(n, dir);
          runs[side].push(t);
          console.log(`| ${r + 1} | ${side === "original" ? `original (seed ${seed})` : side} | ${load.toFixed(2)} | ${fmt(t.wall)} | ${fmt(t.cpu)} | ${Math.round(count / t.wall)} |`);
          break;
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
  }
  if (layouts.original !== layouts.yardstick) console.log(`layouts differ:\n  original:  ${layouts.original}\n  yardstick: ${layouts.yardstick}`);
  const o = median(runs.original.map((t) => t.wall));
  const y = median(runs.yardstick.map((t) => t.wall));
  const pairs = runs.original.map((t, i) => t.wall / runs.yardstick[i].wall);
  summary.push({ n, o, y, ratio: o / y, pairs });
}
console.log("\n| shapes | original median wall s | yardstick median wall s | original canvases/s | yardstick canvases/s | × original (medians) | × original, each pair |");
console.log("|---|---|---|---|---|---|---|");
for (const s of summary) {
  console.log(
    `| ${s.n} | ${fmt(s.o)} | ${fmt(s.y)} | ${Math.round(count / s.o)} | ${Math.round(count / s.y)} | **${fmt(s.ratio, 1)}×** | ${s.pairs.map((p) => fmt(p, 1)).join(" · ")} |`,
  );
}
