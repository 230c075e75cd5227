/**
 * `yardstick run` on a full disk and with a damaged cache, as a user meets them: one message naming
 * the file and what to do, exit 1, no stack trace, and once there is room the same command finishes
 * without asking again for what was stored. The full disk is a size-limited file (`ulimit -f`, any
 * user) and, where this machine lets the test mount one, a 128 KiB tmpfs under the run store and
 * under the request cache. engine/src/storage-failures.test.ts covers the same at the store level.
 */
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";

const cli = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bin", "yardstick.js");
const CONCURRENCY = 4;

interface Exit {
  code: number | null;
  stderr: string;
}

/** Runs the CLI; `fileBlocks` caps the size of every file it writes (`ulimit -f`), as a full disk would. */
function runCli(args: string[], env: NodeJS.ProcessEnv, fileBlocks?: number): Promise<Exit> {
  const [cmd, argv] =
    fileBlocks === undefined
      ? [process.execPath, [cli, ...args]]
      : ["/bin/sh", ["-c", `ulimit -f ${fileBlocks} && exec "$0" "$@"`, process.execPath, cli, ...args]];
  const child = spawn(cmd, argv, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += String(d);
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

const records = (path: string): { sample: string; promptHash: string; error?: unknown }[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return []; // the line the full disk tore (cut when the store is next opened)
      }
    });

/** The one error line, with neither a stack trace nor Node's crash report. */
function expectOneClearError(stderr: string, message: RegExp): void {
  const errors = stderr.split("\n").filter((l) => l.startsWith("error: "));
  expect(errors, stderr).toHaveLength(1);
  expect(errors[0]).toMatch(message);
  expect(stderr).not.toMatch(/\n\s+at |node:internal|Unhandled 'error' event|internal error/);
}

let server: DevServer;
beforeAll(async () => {
  server = await startDevServer({ port: 0, policy: (req) => toyAnswer(req.lastUserText) });
});
afterAll(async () => {
  await server.close();
});
// Every task here asks the same prompts: each test counts its own requests.
beforeEach(() => server.resetStats());

function setUpRun(total: number, where: { out?: string; cacheDir?: string | false } = {}) {
  const tasks = makeSentimentTask(total);
  const out = where.out ?? join(tasks, "run");
  const cache = where.cacheDir === false ? ["--no-cache"] : [];
  return {
    out,
    responses: join(out, "responses.jsonl"),
    args: ["run", tasks, "--model", "openai-compatible:toy", "--base-url", `${server.url}/v1`, "--out", out, "--concurrency", String(CONCURRENCY), "--quiet", ...cache],
    env: { YARDSTICK_CACHE_DIR: typeof where.cacheDir === "string" ? where.cacheDir : mkdtempSync(join(tmpdir(), "ys-cache-")) },
  };
}

/** The second run finished the task, sending only what the first did not store (plus those in flight). */
function expectFinishedWithoutResending(run: ReturnType<typeof setUpRun>, total: number, storedBefore: ReturnType<typeof records>): void {
  const stats = server.stats();
  for (const rec of storedBefore.filter((r) => !r.error)) expect(stats.byPromptHash[rec.promptHash], `sample ${rec.sample}`).toBe(1);
  const sent = stats.requests["/v1/chat/completions"] ?? 0;
  expect(sent).toBeGreaterThanOrEqual(total);
  // Only the requests in flight when the disk filled (answered, but with no room to store them) go again.
  expect(sent - total).toBeLessThanOrEqual(2 * CONCURRENCY);
  const results = JSON.parse(readFileSync(join(run.out, "results.json"), "utf8"));
  expect(results.en.nlu.toy.n).toBe(total);
  expect(results.en.nlu.toy.normalized_accuracy).toBe(100);
}

describe("a full disk under the run store: a size-limited file (ulimit -f)", () => {
  it("stops with one message naming responses.jsonl and what to do; the same command then finishes, re-sending only what was in flight", async () => {
    const total = 300;
    const run = setUpRun(total, { cacheDir: false });
    const full = await runCli(run.args, run.env, 64);
    expect(full.code).toBe(1);
    expectOneClearError(
      full.stderr,
      new RegExp(
        `^error: ${run.responses.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: cannot write: the file reached the size limit for files \\(EFBIG, see ulimit -f\\)\\. Free some space and run the same command again: the answers already stored in .* are kept and are not asked again\\.$`,
      ),
    );
    expect(existsSync(join(run.out, "run.lock"))).toBe(false);
    const stored = records(run.responses);
    expect(stored.length).toBeGreaterThan(10);
    expect(stored.length).toBeLessThan(total);

    const again = await runCli(run.args, run.env);
    expect(again.code, again.stderr).toBe(0);
    expectFinishedWithoutResending(run, total, stored);
  });
});

/** A 128 KiB tmpfs at a new folder, or undefined where this machine does not allow mounting. */
function mountSmallTmpfs(): string | undefined {
  if (process.platform !== "linux") return undefined;
  const dir = mkdtempSync(join(tmpdir(), "ys-tmpfs-"));
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", "size=128k", "tmpfs", dir], { stdio: "ignore" });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  return dir;
}

const grow = (dir: string): void => {
  expect(spawnSync("mount", ["-o", "remount,size=16m", dir]).status).toBe(0);
};

const canMount = ((): boolean => {
  const probe = mountSmallTmpfs();
  if (probe !== undefined) spawnSync("umount", [probe]);
  return probe !== undefined;
})();

// Mounting needs root: where the test may not, the size-limited file above and the /dev/full and
// SQLITE_FULL tests in the engine cover the same code.
describe.skipIf(!canMount)("a full disk: a 128 KiB tmpfs", () => {
  it("under the run store: one message naming the file; after the disk grows the same command finishes", async () => {
    const disk = mountSmallTmpfs()!;
    try {
      const total = 500;
      const run = setUpRun(total, { out: join(disk, "run"), cacheDir: false });
      const full = await runCli(run.args, run.env);
      expect(full.code).toBe(1);
      expectOneClearError(full.stderr, /^error: .*\/run\/(responses|samples\/toy_en)\.jsonl: cannot write: no space left on the disk \(ENOSPC\)\. Free some space and run the same command again/);
      const stored = records(run.responses);
      expect(stored.length).toBeGreaterThan(10);
      grow(disk);
      const again = await runCli(run.args, run.env);
      expect(again.code, again.stderr).toBe(0);
      expectFinishedWithoutResending(run, total, stored);
    } finally {
      spawnSync("umount", [disk]);
    }
  });

  it("under the request cache: one message naming requests.sqlite; the cache keeps what it had and the same command finishes", async () => {
    const disk = mountSmallTmpfs()!;
    try {
      const total = 500;
      const cacheDir = join(disk, "cache");
      const run = setUpRun(total, { cacheDir });
      const full = await runCli(run.args, run.env);
      expect(full.code).toBe(1);
      expectOneClearError(
        full.stderr,
        new RegExp(`^error: ${cacheDir}/requests\\.sqlite: cannot write the request cache: the disk is full \\(SQLITE_FULL\\)\\. Free some space and run the same command again`),
      );
      const stored = records(run.responses);
      grow(disk);
      const info = spawnSync(process.execPath, [cli, "cache", "info", "--json"], { env: { ...process.env, ...run.env }, encoding: "utf8" });
      // The cache opens cleanly after the failed write; how much it holds depends on when the disk
      // filled (a 128 KiB disk can fill before the first commit), never more than the answers stored.
      expect(info.status, info.stderr).toBe(0);
      const entries = JSON.parse(info.stdout).entries as number;
      expect(Number.isInteger(entries)).toBe(true);
      expect(entries).toBeLessThanOrEqual(stored.length);
      const again = await runCli(run.args, run.env);
      expect(again.code, again.stderr).toBe(0);
      expectFinishedWithoutResending(run, total, stored);
    } finally {
      spawnSync("umount", [disk]);
    }
  });
});

describe("a damaged page inside the request cache", () => {
  it("names the file and says to delete it (exit 1, no stack trace); deleting it as told lets the run go on", async () => {
    const total = 400;
    const cacheDir = mkdtempSync(join(tmpdir(), "ys-cache-"));
    const first = setUpRun(total, { cacheDir });
    expect((await runCli(first.args, first.env)).code).toBe(0);
    const path = join(cacheDir, "requests.sqlite");
    const pages = Math.floor(statSync(path).size / 4096);
    expect(pages).toBeGreaterThan(12);
    const fd = openSync(path, "r+");
    for (let p = Math.floor(pages / 3); p < Math.floor(pages / 3) + 5; p++) writeSync(fd, Buffer.alloc(4096, 0xde), 0, 4096, p * 4096);
    closeSync(fd);

    const second = setUpRun(total, { cacheDir });
    const damaged = await runCli(second.args, second.env);
    expect(damaged.code).toBe(1);
    const told = new RegExp(
      `^error: ${path}: the request cache is damaged \\(SQLITE_CORRUPT[^)]*\\)\\. Delete it \\(rm "${path}" "${path}-wal" "${path}-shm"\\) to start a new cache, or set YARDSTICK_CACHE_DIR to another folder, or run with --no-cache`,
    );
    expectOneClearError(damaged.stderr, told);
    const info = spawnSync(process.execPath, [cli, "cache", "info"], { env: { ...process.env, ...second.env }, encoding: "utf8" });
    expect(info.status).toBe(1);
    expectOneClearError(info.stderr, told);

    for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
    mkdirSync(cacheDir, { recursive: true });
    const after = await runCli(second.args, second.env);
    expect(after.code, after.stderr).toBe(0);
  });
});
