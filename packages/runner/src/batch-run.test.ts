import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, type DevServerOptions, startDevServer } from "@yardstick/testing";
import { afterEach, describe, expect, it } from "vitest";
import { captureIO, makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

// `yardstick run --batch` end to end: the dev server's batch APIs, the CLI, a real run store.

const cli = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bin", "yardstick.js");
const ROWS = 9;

const servers: DevServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(options: DevServerOptions = {}): Promise<DevServer> {
  const s = await startDevServer({ policy: (req) => toyAnswer(req.lastUserText), ...options });
  servers.push(s);
  return s;
}

const env = (): NodeJS.ProcessEnv => ({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-batch-cache-")), TEST_KEY: "test-key-1234" });

type Rec = Record<string, any>;
const records = (out: string): Rec[] => {
  const path = join(out, "responses.jsonl");
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Rec];
      } catch {
        return []; // a line torn by kill -9
      }
    });
};
const texts = (out: string) =>
  new Map(records(out).filter((r) => r.status === "ok").map((r) => [r.sample, r.choices[0].text]));
const results = (out: string) => JSON.parse(readFileSync(join(out, "results.json"), "utf8"));

describe("yardstick run --batch", () => {
  it("openai-compatible: answers through the OpenAI Batch API with the online run's scores", async () => {
    const s = await server();
    const tasks = makeSentimentTask(ROWS);
    const base = ["run", tasks, "--model", "openai-compatible:toy", "--base-url", `${s.url}/v1`, "--quiet", "--no-report"];
    expect(await main([...base, "--out", join(tasks, "online"), "--no-cache"], captureIO(env()))).toBe(0);
    const online = s.stats().requests["/v1/chat/completions"];
    const io = captureIO(env());
    expect(await main([...base, "--out", join(tasks, "batch"), "--batch", "--batch-poll-seconds", "0.05"], io)).toBe(0);
    expect(io.err()).toMatch(/batch batch_\w+ created with 9 request\(s\): generate, \S+/);
    expect(s.stats().requests["/v1/chat/completions"]).toBe(online);
    expect(s.stats().batches).toEqual({ created: 1, requests: ROWS });
    expect(texts(join(tasks, "batch"))).toEqual(texts(join(tasks, "online")));
    expect(results(join(tasks, "batch"))).toEqual(results(join(tasks, "online")));
  });

  it("anthropic: answers through the Message Batches API", async () => {
    const s = await server({ apiKey: "test-key-1234" });
    const tasks = makeSentimentTask(ROWS);
    const out = join(tasks, "batch");
    const args = ["run", tasks, "--model", "anthropic:claude-test", "--base-url", s.url, "--api-key-env", "TEST_KEY", "--out", out, "--quiet", "--no-report"];
    const io = captureIO(env());
    expect(await main([...args, "--batch", "--batch-poll-seconds", "0.05"], io)).toBe(0);
    expect(s.stats().requests["/v1/messages"]).toBeUndefined();
    expect(s.stats().batches).toEqual({ created: 1, requests: ROWS });
    expect(results(out).en.nlu.toy.normalized_accuracy).toBe(100);
  });

  it("a run killed (kill -9) after its batch was created re-attaches on restart: one batch in all", async () => {
    const s = await server({ batch: { processingMs: 1500 } });
    const tasks = makeSentimentTask(ROWS);
    const out = join(tasks, "run");
    const args = ["run", tasks, "--model", "openai-compatible:toy", "--base-url", `${s.url}/v1`, "--out", out, "--no-cache", "--batch", "--batch-poll-seconds", "0.05", "--no-report"];
    const first = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env() }, stdio: ["ignore", "ignore", "ignore"] });
    const firstExit = new Promise((resolve) => first.on("exit", resolve));
    const deadline = Date.now() + 20_000;
    while (records(out).filter((r) => r.status === "pending").length < ROWS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    first.kill("SIGKILL");
    await firstExit;
    expect(records(out).filter((r) => r.status === "pending")).toHaveLength(ROWS);
    expect(records(out).filter((r) => r.status === "ok")).toHaveLength(0);
    expect(s.stats().batches.created).toBe(1);

    const io = captureIO(env());
    expect(await main(args, io)).toBe(0);
    expect(s.stats().batches).toEqual({ created: 1, requests: ROWS });
    expect(s.stats().requests["/v1/chat/completions"]).toBeUndefined();
    expect(results(out).en.nlu.toy.normalized_accuracy).toBe(100);
  });

  it("refuses --batch for a provider without a batch API, and --batch-poll-seconds without --batch", async () => {
    const tasks = makeSentimentTask(3);
    const io = captureIO(env());
    const code = await main(["run", tasks, "--model", "baseline:random", "--batch", "--quiet"], io);
    expect(code).toBe(1);
    expect(io.err()).toMatch(/--batch: --model baseline:random has no batch API; --batch works with openai-compatible models .* and anthropic models/);
    const io2 = captureIO(env());
    expect(await main(["run", tasks, "--model", "baseline:random", "--batch-poll-seconds", "5"], io2)).toBe(2);
    expect(io2.err()).toMatch(/--batch-poll-seconds needs --batch/);
  });
});
