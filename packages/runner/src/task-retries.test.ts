import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { captureIO, makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

const retriesOf = (dir: string): Record<string, number | undefined> =>
  Object.fromEntries(
    Object.entries(JSON.parse(readFileSync(join(dir, "results.json"), "utf8")).meta.tasks as Record<string, { retries?: number }>).map(([k, t]) => [k, t.retries]),
  );

describe("retries per task", () => {
  it("are counted in the results table and results.json, and score-run gives the same", async () => {
    // The first three requests fail (500, 429, 500) and are retried: 3 extra attempts in all.
    const server = await startDevServer({
      port: 0,
      policy: (req) => toyAnswer(req.lastUserText),
      faults: { script: ["500", "429", "500"], retryAfterSeconds: 0 },
    });
    const env = { YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) };
    try {
      const tasks = makeSentimentTask(12);
      const out = join(tasks, "run");
      const args = ["run", tasks, "--model", "openai-compatible:toy", "--base-url", `${server.url}/v1`, "--out", out, "--concurrency", "1", "--no-cache", "--no-report"];
      const run = captureIO(env);
      expect(await main(args, run), run.err()).toBe(0);
      const [header, , row] = run.out().split("\n");
      expect(header).toMatch(/n\s+errors\s+retries$/);
      expect(row).toMatch(/\s0\s+3$/);
      expect(retriesOf(out)).toEqual({ "toy/en": 3 });

      const rescored = captureIO(env);
      expect(await main(["score-run", out], rescored), rescored.err()).toBe(0);
      expect(rescored.out().split("\n")[2]).toMatch(/\s0\s+3$/);
      expect(retriesOf(out)).toEqual({ "toy/en": 3 });

    } finally {
      await server.close();
    }
  });

  it("of shards add up in the merged store (each shard's sessions come along)", async () => {
    const tasks = makeSentimentTask(12);
    const env = { YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) };
    const shards = [1, 2].map((i) => join(tasks, `shard-${i}`));
    for (const [i, dir] of shards.entries()) {
      // Shard 1 meets one 500, shard 2 two.
      const server = await startDevServer({ port: 0, policy: (req) => toyAnswer(req.lastUserText), faults: { script: i === 0 ? ["500"] : ["500", "500"] } });
      try {
        const args = ["run", tasks, "--model", "openai-compatible:toy", "--base-url", `${server.url}/v1`, "--out", dir, "--concurrency", "1", "--no-cache", "--no-report", "--shard", `${i + 1}/2`];
        expect(await main(args, captureIO(env))).toBe(0);
      } finally {
        await server.close();
      }
      expect(retriesOf(dir)).toEqual({ "toy/en": i + 1 });
    }
    const merged = join(tasks, "merged");
    const merge = captureIO(env);
    expect(await main(["merge", ...shards, "--out", merged], merge), merge.err()).toBe(0);
    expect(merge.out().split("\n")[2]).toMatch(/\s0\s+3$/);
    expect(retriesOf(merged)).toEqual({ "toy/en": 3 });
  });
});
