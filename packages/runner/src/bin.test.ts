import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const bin = join(root, "node_modules", ".bin", "yardstick");

/** Runs the installed `yardstick` (the bundled CLI) without blocking the event loop (the dev server lives in this process). */
function yardstick(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(bin, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += String(d)));
  child.stderr.on("data", (d) => (stderr += String(d)));
  return new Promise((resolve) => {
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
    child.on("error", (err) => resolve({ code: null, stdout, stderr: `${stderr}${err.message}` }));
  });
}

describe("the installed commands", () => {
  it("yardstick and yardstick-dev-server run from node_modules/.bin after a build", () => {
    const help = spawnSync(bin, ["--help"], { encoding: "utf8" });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain("usage: yardstick <command>");
    const dev = spawnSync(join(root, "node_modules", ".bin", "yardstick-dev-server"), ["--help"], { encoding: "utf8" });
    expect(dev.status, dev.stderr).toBe(0);
  });

  it("yardstick is the bundled CLI (dist/bin), and it runs, prices, reports and generates like the modules it was built from", async () => {
    expect(realpathSync(bin)).toBe(join(root, "packages", "runner", "dist", "bin", "yardstick.js"));
    const server = await startDevServer({ port: 0, policy: (req) => toyAnswer(req.lastUserText) });
    try {
      const tasks = makeSentimentTask(12);
      const out = join(tasks, "run");
      const env = { YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) };
      const run = await yardstick(["run", tasks, "--model", "openai-compatible:toy", "--base-url", `${server.url}/v1`, "--out", out, "--quiet"], env);
      expect(run.code, run.stderr).toBe(0);
      const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
      expect(Object.keys(results.tasks ?? results).length).toBeGreaterThan(0);
      // The report inlines Chart.js, found from @yardstick/report's own folder.
      expect(readFileSync(join(out, "report.html"), "utf8")).toMatch(/Chart\.js v\d/);
      // Run metadata names the installed packages' versions.
      expect(JSON.parse(readFileSync(join(out, "run.json"), "utf8")).versions["@yardstick/engine"]).toMatch(/^\d+\.\d+\.\d+/);

      // The built-in price table (a file shipped in @yardstick/engine) and the o200k tokenizer.
      const dry = await yardstick(["run", tasks, "--model", "openai-compatible:gpt-4o", "--base-url", `${server.url}/v1`, "--dry-run"], env);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toMatch(/total cost: \$\d/);
    } finally {
      await server.close();
    }
    // `spatial generate` on two worker threads (their scripts live in @yardstick/spatial, outside the bundle).
    const dir = join(mkdtempSync(join(tmpdir(), "yardstick-spatial-")), "data");
    const spatial = await yardstick(["spatial", "generate", "--shapes", "3", "--count", "600", "--workers", "2", "--out", dir]);
    expect(spatial.code, spatial.stderr).toBe(0);
    expect(readdirSync(dir).filter((f) => f.startsWith("canvas_3_")).length).toBe(600);
    expect(existsSync(join(dir, "canvas_3_599.json"))).toBe(true);
  }, 60_000);

  it("the bundle holds undici's Pool without the rest of undici's index (fetch, WebSocket, caches, mocks)", () => {
    const chunks = join(root, "packages", "runner", "dist", "bin", "chunks");
    const text = readdirSync(chunks)
      .map((f) => readFileSync(join(chunks, f), "utf8"))
      .join("\n");
    expect(text).toContain("packages/runner/scripts/undici-subset.mjs");
    const leftOut = ["index.js", "lib/web/fetch/index.js", "lib/web/websocket/", "lib/web/eventsource/", "lib/mock/", "lib/cache/", "lib/dispatcher/proxy-agent.js"];
    for (const left of leftOut.map((path) => `node_modules/undici/${path}`)) {
      expect(text).not.toContain(left);
    }
  });
});
