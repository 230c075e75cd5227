import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { captureIO, makeSentimentTask } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

const env = () => ({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) });
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe("bad input gives one clear message and a non-zero exit", () => {
  it("malformed YAML: file, line and column", async () => {
    const tasks = makeSentimentTask(3);
    const file = join(tasks, "toy", "config.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("  name: toy\n", "  name: [toy\n"));
    const io = captureIO(env());
    expect(await main(["run", tasks, "--model", "baseline:majority"], io)).toBe(1);
    expect(io.err()).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+:\\d+`));
    noStack(io.err());
  });

  it("a key of the wrong type: position and key path", async () => {
    const tasks = makeSentimentTask(3);
    const file = join(tasks, "toy", "config.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("max_tokens: 16", "max_tokens: sixteen"));
    const io = captureIO(env());
    expect(await main(["validate", tasks], io)).toBe(1);
    expect(io.err()).toMatch(/config\.yaml:\d+:\d+ toy\.languages\.en\.max_tokens/);
    const run = captureIO(env());
    expect(await main(["run", tasks, "--model", "baseline:majority"], run)).toBe(1);
    expect(run.err()).toMatch(/toy\.languages\.en\.max_tokens/);
    noStack(run.err());
  });

  it("a missing data file", async () => {
    const tasks = makeSentimentTask(3);
    rmSync(join(tasks, "toy", "data", "test.jsonl"));
    const io = captureIO(env());
    expect(await main(["run", tasks, "--model", "baseline:majority"], io)).toBe(1);
    expect(io.err()).toMatch(/data file of task toy\/en not found/);
    noStack(io.err());
  });

  it("a malformed data row: file and line", async () => {
    const tasks = makeSentimentTask(3);
    const data = join(tasks, "toy", "data", "test.jsonl");
    writeFileSync(data, `${readFileSync(data, "utf8")}{"id": "broken", "prompts": \n`);
    const io = captureIO(env());
    expect(await main(["run", tasks, "--model", "baseline:majority", "--out", join(tasks, "r")], io)).toBe(1);
    expect(io.err()).toMatch(/test\.jsonl:4/);
    noStack(io.err());
  });

  it("an unknown provider id lists the ones that exist", async () => {
    const tasks = makeSentimentTask(3);
    const io = captureIO(env());
    expect(await main(["run", tasks, "--model", "nosuch:model"], io)).toBe(1);
    expect(io.err()).toMatch(/invalid model spec "nosuch:model".*openai-compatible/);
    noStack(io.err());
  });

  it("an unreachable server", async () => {
    const tasks = makeSentimentTask(3);
    const port = await freePort();
    const io = captureIO(env());
    expect(await main(["run", tasks, "--model", "openai-compatible:m", "--base-url", `http://127.0.0.1:${port}/v1`], io)).toBe(1);
    expect(io.err()).toMatch(/cannot reach the model server at http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\)/);
    noStack(io.err());
  });

  it("a non-JSON answer from the server becomes error records, and nothing stored is lost", async () => {
    const server = await startDevServer({ port: 0, policy: "echo", faults: { rateMalformed: 1 } });
    try {
      const tasks = makeSentimentTask(3);
      const out = join(tasks, "r");
      const io = captureIO(env());
      const code = await main(
        ["run", tasks, "--model", "openai-compatible:m", "--base-url", `${server.url}/v1`, "--out", out, "--max-attempts", "2"],
        io,
      );
      expect(code).toBe(1);
      const records = readFileSync(join(out, "responses.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(records).toHaveLength(3);
      for (const r of records) expect(r.error.message).toMatch(/JSON/i);
      expect(io.err()).toMatch(/3 request\(s\) failed for good/);
      noStack(io.err());
    } finally {
      await server.close();
    }
  });

  it("bad flags: usage and exit code 2", async () => {
    const tasks = makeSentimentTask(3);
    const io = captureIO(env());
    expect(await main(["run", tasks, "--model", "baseline:majority", "--limit", "zero"], io)).toBe(2);
    expect(io.err()).toMatch(/--limit: expected an integer/);
    expect(io.err()).toMatch(/usage: yardstick run/);
    const unknown = captureIO(env());
    expect(await main(["run", tasks, "--frobnicate"], unknown)).toBe(2);
    expect(unknown.err()).toMatch(/Unknown option '--frobnicate'/);
    const cmd = captureIO(env());
    expect(await main(["frobnicate"], cmd)).toBe(2);
    expect(cmd.err()).toMatch(/unknown command "frobnicate"; commands: run, validate/);
  });

  it("validate accepts a good config and says how many tasks it has", async () => {
    const tasks = makeSentimentTask(3);
    const io = captureIO(env());
    expect(await main(["validate", tasks], io)).toBe(0);
    expect(io.out()).toMatch(/ok: 1 task\(s\), 1 task-language pair\(s\)/);
  });
});

describe("unusable run folders and caches are named, not internal errors", () => {
  it("--out is a file, run.json is corrupt, the cache is not a database", async () => {
    const tasks = makeSentimentTask(2);
    const dir = mkdtempSync(join(tmpdir(), "ys-bad-"));
    writeFileSync(join(dir, "afile"), "");
    const a = captureIO(env());
    expect(await main(["run", tasks, "--model", "baseline:majority", "--out", join(dir, "afile")], a)).toBe(1);
    expect(a.err()).toMatch(/afile: cannot use this as the run folder \(ENOTDIR\); choose another --out/);
    const corrupt = join(dir, "corrupt");
    expect(await main(["run", tasks, "--model", "baseline:majority", "--out", corrupt, "--quiet"], captureIO(env()))).toBe(0);
    writeFileSync(join(corrupt, "run.json"), "{x");
    const b = captureIO(env());
    expect(await main(["run", tasks, "--model", "baseline:majority", "--out", corrupt], b)).toBe(1);
    expect(b.err()).toMatch(/run\.json: not valid JSON/);
    const cacheDir = join(dir, "cache");
    const c = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    rmSync(cacheDir, { recursive: true, force: true });
    mkdirSync(cacheDir);
    writeFileSync(join(cacheDir, "requests.sqlite"), "this is not a database, not at all, no");
    expect(await main(["run", tasks, "--model", "baseline:majority", "--out", join(dir, "c")], c)).toBe(1);
    expect(c.err()).toMatch(/requests\.sqlite: not a yardstick request cache \(SQLite says: file is not a database\); move the file away/);
    for (const io of [a, b, c]) noStack(io.err());
  });
});

describe("failures that would spoil the whole run", () => {
  it("stops after the first requests all fail, instead of scoring a run of errors", async () => {
    const server = await startDevServer({ port: 0, policy: "echo", faults: { rate500: 1 } });
    try {
      const tasks = makeSentimentTask(40);
      const out = join(tasks, "r");
      const io = captureIO(env());
      const code = await main(
        ["run", tasks, "--model", "openai-compatible:m", "--base-url", `${server.url}/v1`, "--out", out, "--max-attempts", "1", "--concurrency", "2"],
        io,
      );
      expect(code).toBe(1);
      expect(io.err()).toMatch(/the first 10 requests all failed, so the run stopped \(rerun to retry them once fixed\); the last error: .*500/);
      const sent = server.stats().requests["/v1/chat/completions"] ?? 0;
      expect(sent).toBeGreaterThanOrEqual(10);
      expect(sent).toBeLessThan(40);
      noStack(io.err());
    } finally {
      await server.close();
    }
  });

  it("a misspelt main score or a row without a label stops the run before its first request", async () => {
    const server = await startDevServer({ port: 0, policy: "echo" });
    try {
      const misspelt = makeSentimentTask(4);
      const config = join(misspelt, "toy", "config.yaml");
      writeFileSync(config, readFileSync(config, "utf8").replace("metric: normalized_accuracy", "metric: normalised_accuracy"));
      const unlabelled = makeSentimentTask(40);
      const data = join(unlabelled, "toy", "data", "test.jsonl");
      writeFileSync(data, readFileSync(data, "utf8").replace(',"label":"Positive"}\n{"id":"s4"', '}\n{"id":"s4"'));
      for (const [tasks, message] of [
        [misspelt, /config\.yaml toy\.metric: task toy\/en: its metrics report no "normalised_accuracy" \(the config's main score\); they report: .*normalized_accuracy.* \(checked before any request was sent\)/],
        [unlabelled, /test\.jsonl: task toy\/en: sample s3 \(row 4\) has no label, which its metric needs \(metric seahelm-f1acc: .*\); give it its label or remove the row/],
      ] as const) {
        const io = captureIO(env());
        const args = ["run", tasks, "--model", "openai-compatible:m", "--base-url", `${server.url}/v1`, "--out", join(tasks, "r")];
        expect(await main(args, io)).toBe(1);
        expect(io.err()).toMatch(message);
        noStack(io.err());
        // Nothing written: the corrected data runs into the same --out (it was refused as "a different run").
        expect(existsSync(join(tasks, "r"))).toBe(false);
      }
      expect(server.stats().requests["/v1/chat/completions"] ?? 0).toBe(0);
      writeFileSync(data, readFileSync(data, "utf8").replace('"sentence number 3"}]}', '"sentence number 3"}],"label":"Positive"}'));
      const fixed = captureIO(env());
      expect(await main(["run", unlabelled, "--model", "openai-compatible:m", "--base-url", `${server.url}/v1`, "--out", join(unlabelled, "r")], fixed), fixed.err()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("a template key missing from any row is named before the first request, and no store is left", async () => {
    const server = await startDevServer({ port: 0, policy: "echo" });
    try {
      const tasks = makeSentimentTask(40);
      const data = join(tasks, "toy", "data", "test.jsonl");
      writeFileSync(data, readFileSync(data, "utf8").replace('{"text":"sentence number 30"}', '{"txt":"sentence number 30"}'));
      const args = ["run", tasks, "--model", "openai-compatible:m", "--base-url", `${server.url}/v1`, "--out", join(tasks, "r")];
      const io = captureIO(env());
      expect(await main(args, io)).toBe(1);
      expect(io.err()).toMatch(/config\.yaml toy\.languages\.en\.prompt_template: task toy\/en, sample s30, turn 1: cannot build the prompt: .*text/);
      noStack(io.err());
      expect(server.stats().requests["/v1/chat/completions"] ?? 0).toBe(0);
      expect(existsSync(join(tasks, "r"))).toBe(false);
      writeFileSync(data, readFileSync(data, "utf8").replace('"txt":', '"text":'));
      const again = captureIO(env());
      expect(await main(args, again), again.err()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("a task whose data file is empty is refused before the first request (scoring failed it after every request)", async () => {
    const server = await startDevServer({ port: 0, policy: "echo" });
    try {
      const tasks = makeSentimentTask(5);
      const data = join(tasks, "toy", "data", "test.jsonl");
      writeFileSync(data, "");
      const io = captureIO(env());
      expect(await main(["run", tasks, "--model", "openai-compatible:m", "--base-url", `${server.url}/v1`, "--out", join(tasks, "r")], io)).toBe(1);
      expect(io.err()).toContain(`${data}: task toy/en: its data has no rows; a task needs at least one sample (checked before any request was sent)`);
      noStack(io.err());
      expect(server.stats().requests["/v1/chat/completions"] ?? 0).toBe(0);
      expect(existsSync(join(tasks, "r"))).toBe(false);
    } finally {
      await server.close();
    }
  });
});

describe("text from a config is never sent to the terminal raw", () => {
  it("escape sequences in a key and the bytes of a binary config file are shown as \\xNN", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-escapes-"));
    mkdirSync(join(dir, "keys", "toy"), { recursive: true });
    writeFileSync(join(dir, "keys", "toy", "config.yaml"), '"\\e[31mtoy\\a":\n  languages:\n    "\\e]0;pwned\\a": 5\n');
    mkdirSync(join(dir, "binary", "toy"), { recursive: true });
    writeFileSync(join(dir, "binary", "toy", "config.yaml"), Buffer.from([0x1b, 0x5b, 0x32, 0x4a, 0x00, 0x07, 0x9b, 0xff, 0x0a, 0x61, 0x3a, 0x1b, 0x0a]));
    for (const args of [
      ["validate", join(dir, "keys")],
      ["run", join(dir, "keys"), "--model", "baseline:majority", "--out", join(dir, "out")],
      ["validate", join(dir, "binary")],
      ["run", join(dir, "binary"), "--model", "baseline:majority", "--out", join(dir, "out2")],
    ]) {
      const io = captureIO(env());
      expect(await main(args, io), args.join(" ")).toBe(1);
      expect(io.err(), args.join(" ")).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      noStack(io.err());
    }
    const io = captureIO(env());
    await main(["validate", join(dir, "keys")], io);
    expect(io.err()).toContain("\\x1b[31mtoy\\x07.metadata: required key is missing");
  });
});
