import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { captureIO, makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

const env = () => ({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) });

describe("sampling flags", () => {
  it("sends temperature, top_p, max_tokens, stop, seed and extra body fields to the server", async () => {
    const bodies: Record<string, unknown>[] = [];
    const server = await startDevServer({
      port: 0,
      policy: (req) => {
        bodies.push(req.body);
        return toyAnswer(req.lastUserText);
      },
    });
    try {
      const tasks = makeSentimentTask(2);
      const io = captureIO(env());
      const code = await main(
        [
          "run", tasks, "--model", "openai-compatible:m", "--base-url", `${server.url}/v1`, "--out", join(tasks, "r"), "--quiet",
          "--temperature", "0", "--top-p", "0.9", "--max-tokens", "7", "--stop", "\n\n", "--seed", "42",
          "--extra-body", '{"chat_template_kwargs":{"enable_thinking":false}}',
        ],
        io,
      );
      expect(code, io.err()).toBe(0);
      expect(bodies).toHaveLength(2);
      expect(bodies[0]).toMatchObject({
        temperature: 0,
        top_p: 0.9,
        max_tokens: 7,
        stop: ["\n\n"],
        seed: 42,
        chat_template_kwargs: { enable_thinking: false },
      });
      const manifest = JSON.parse(readFileSync(join(tasks, "r", "run.json"), "utf8"));
      expect(manifest.tasks[0].generation).toMatchObject({ temperature: 0, maxTokens: 7 });
    } finally {
      await server.close();
    }
  });

  it("rejects a malformed --extra-body", async () => {
    const io = captureIO(env());
    expect(await main(["run", makeSentimentTask(1), "--model", "baseline:majority", "--extra-body", "{nope"], io)).toBe(2);
    expect(io.err()).toMatch(/--extra-body: expected a JSON object/);
  });

  it("a sampling value out of range names the range (a negative temperature was 'expected a number (got \"-1\")')", async () => {
    for (const [flag, value, range] of [
      ["--temperature", "-1", "from 0 to 100"],
      ["--top-p", "1.5", "from 0 to 1"],
      ["--top-p", "abc", "from 0 to 1"],
    ] as const) {
      const io = captureIO(env());
      expect(await main(["run", makeSentimentTask(1), "--model", "baseline:majority", `${flag}=${value}`], io)).toBe(2);
      expect(io.err()).toContain(`${flag}: expected a number ${range} (got "${value}")`);
    }
  });

  it("refuses one server given twice as --base-url (it would be two lanes of the fleet, shown twice)", async () => {
    for (const [flag, second] of [
      ["--base-url", "http://LOCALHOST:9/v1/"],
      ["--judge-base-url", "http://localhost:9/v1"],
    ] as const) {
      const io = captureIO(env());
      expect(await main(["run", makeSentimentTask(1), "--model", "baseline:majority", flag, "http://localhost:9/v1", flag, second], io)).toBe(2);
      expect(io.err()).toContain(`${flag}: ${second} names the same server as http://localhost:9/v1; give each server once`);
    }
  });
});

describe("checks before the first request", () => {
  it("a base URL without the API path: 404 on /models, with a hint", async () => {
    const server = await startDevServer({ port: 0, policy: "echo" });
    try {
      const io = captureIO(env());
      expect(await main(["run", makeSentimentTask(2), "--model", "openai-compatible:m", "--base-url", server.url], io)).toBe(1);
      expect(io.err()).toMatch(/no OpenAI-compatible API at http:\/\/127\.0\.0\.1:\d+: GET .*\/models answered 404 \(OpenAI-compatible base URLs usually end in \/v1\)/);
      expect(server.stats().requests["/v1/chat/completions"] ?? 0).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("validate and run name the task and file of a metric class yardstick does not have", async () => {
    const tasks = makeSentimentTask(2);
    const file = join(tasks, "toy", "config.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("F1AccMetric", "FooMetric"));
    const v = captureIO(env());
    expect(await main(["validate", tasks, "--strict"], v)).toBe(1);
    expect(v.err()).toMatch(/toy \(en\) \S*config\.yaml: needs the metric "seahelm:FooMetric", which is not installed \(SEA-HELM's FooMetric has no yardstick port yet; install @yardstick\/metric-seahelm-foometric or yardstick-metric-seahelm-foometric: a package of either name is found without --plugin\)/);
    expect(await main(["validate", "--schema-only", tasks], captureIO(env()))).toBe(0);
    const r = captureIO(env());
    expect(await main(["run", tasks, "--model", "baseline:majority"], r)).toBe(1);
    expect(r.err()).toMatch(/task toy\/en needs the metric "seahelm:FooMetric"/);
  });

  it("the instruction-following metric is found by its package name, without --plugin (which still works)", async () => {
    const tasks = makeSentimentTask(2);
    const file = join(tasks, "toy", "config.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("F1AccMetric", "IFEvalMetric"));
    const io = captureIO(env());
    expect(await main(["validate", tasks, "--strict"], io), io.err()).toBe(0);
    expect(await main(["validate", tasks, "--plugin", "@yardstick/metric-ifeval"], captureIO(env()))).toBe(0);
  });

  it("a plugin module given as a relative path without ./ is loaded as a file, and a missing one is named", async () => {
    const tasks = makeSentimentTask(2);
    writeFileSync(join(tasks, "my-plugin.mjs"), "export default { metrics: {} };\n");
    expect(await main(["validate", tasks, "--plugin", "my-plugin.mjs"], captureIO(env(), tasks))).toBe(0);
    const io = captureIO(env(), tasks);
    expect(await main(["validate", tasks, "--plugin", "sub/missing.mjs"], io)).toBe(1);
    expect(io.err()).toMatch(/cannot load plugin "sub\/missing\.mjs": no such file/);
    expect(io.err()).not.toMatch(/npm install/);
  });

  it("a logprobs task is refused before any request when the provider cannot score loglikelihoods", async () => {
    const tasks = makeSentimentTask(2);
    const file = join(tasks, "toy", "config.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("  metric: normalized_accuracy\n", "  metric: normalized_accuracy\n  use_logprobs: true\n"));
    const io = captureIO(env());
    expect(await main(["run", tasks, "--model", "baseline:majority", "--out", join(tasks, "run")], io)).toBe(1);
    expect(io.err()).toMatch(/error: \S*config\.yaml toy: task toy\/en scores log-probabilities \(loglikelihood\), which the model provider "baseline:majority" cannot; use an OpenAI-compatible server that echoes prompt logprobs/);
    expect(io.err()).not.toMatch(/writing run store/);
    expect(io.err()).not.toMatch(/\n\s+at /);
  });

  it("an empty folder is not a valid config", async () => {
    const io = captureIO(env());
    expect(await main(["validate", mkdtempSync(join(tmpdir(), "empty-"))], io)).toBe(1);
    expect(io.err()).toMatch(/empty-\w+: no known config dialect reads it \(expected one of: seahelm — a SEA-HELM config\.yaml/);
  });
});
