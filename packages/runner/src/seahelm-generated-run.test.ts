import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

// SEA-HELM's OneRuler NIAH and CWE configs, as in the corpus but at a tiny context_size, with the
// resource files upstream keeps beside them (books, noun list, word lists written for the tests):
// validate finds all 96 pairs runnable, and a NIAH and a CWE task run end to end on the dev server.

const here = dirname(fileURLToPath(import.meta.url));
const CORPUS_ONERULER = join(here, "..", "..", "config", "src", "__fixtures__", "seahelm_tasks", "long_context", "oneruler");
const RESOURCES = join(here, "..", "..", "dataloaders", "src", "__fixtures__", "oneruler");

let dev: DevServer;
let dir: string;
let tasks: string;
beforeAll(async () => {
  dev = await startDevServer({ port: 0, models: ["gen"] });
  dir = mkdtempSync(join(tmpdir(), "ys-generated-run-"));
  tasks = join(dir, "seahelm_tasks");
  const oneruler = join(tasks, "long_context", "oneruler");
  cpSync(RESOURCES, oneruler, { recursive: true });
  for (const family of ["niah", "cwe"]) {
    const config = readFileSync(join(CORPUS_ONERULER, family, "config.yaml"), "utf8");
    // Tiny contexts, so the whole run stays fast; every other key is the corpus's.
    writeFileSync(join(oneruler, family, "config.yaml"), config.replace(/context_size: \d+/g, `context_size: ${family === "niah" ? 1200 : 1500}`));
  }
  // Every language needs its resources for all 96 pairs to run; these are small stand-ins.
  for (const lang of ["ta", "vi"]) cpSync(join(RESOURCES, "niah", "books", "en"), join(oneruler, "niah", "books", lang), { recursive: true });
  for (const lang of ["zh", "ta", "vi"]) cpSync(join(RESOURCES, "cwe", "vocab", "en_words.txt"), join(oneruler, "cwe", "vocab", `${lang}_words.txt`));
});
afterAll(async () => {
  await dev.close();
  rmSync(dir, { recursive: true, force: true });
});

const records = (out: string) =>
  readFileSync(join(out, "responses.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

describe("SEA-HELM's generated long-context tasks (NIAH, CWE)", () => {
  it("validate: all 24 tasks in 4 languages can run once their resource files are there", async () => {
    const io = captureIO({ YARDSTICK_CACHE_DIR: join(dir, "cache") }, dir);
    expect(await main(["validate", tasks], io), io.err()).toBe(0);
    expect(io.out()).toBe("ok: 24 task(s), 96 task-language pair(s)\n");
    expect(io.err()).not.toMatch(/niah|cwe/);
  });

  it("run: a NIAH and a CWE task generate their data, ask the model, and are scored by the NIAH/CWE metrics", async () => {
    const out = join(dir, "run");
    const args = ["run", tasks, "--tasks", "niah_multikey_8k,cwe_8k", "--langs", "en", "--limit", "2", "--model", "openai-compatible:gen"];
    const io = captureIO({ YARDSTICK_CACHE_DIR: join(dir, "cache") }, dir);
    expect(await main([...args, "--base-url", `${dev.url}/v1`, "--out", out, "--no-report", "--quiet"], io), io.err()).toBe(0);
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    for (const task of ["niah_multikey_8k/en", "cwe_8k/en"]) expect(results.meta.tasks[task]).toMatchObject({ samples: 2, errors: 0 });
    expect(typeof results.en["long-context"].niah_multikey_8k.normalized_strict_accuracy).toBe("number");
    expect(typeof results.en["long-context"].cwe_8k.normalized_strict_accuracy).toBe("number");
    const asked = records(out).filter((r) => r.stage === "generate");
    const niah = asked.find((r) => r.task === "niah_multikey_8k/en")!.request.messages.at(-1).content as string;
    expect(niah).toMatch(/^Please read and memorize the text below\. I will ask you about it later\.\n\n<text>\n/);
    expect(niah.match(/The special magic number for "[^"]+" is: \d+\. /g)).toHaveLength(4);
    expect(niah).toMatch(/<Question>What special magic numbers associated with "[^"]+" are mentioned/);
    const cwe = asked.find((r) => r.task === "cwe_8k/en")!.request.messages.at(-1).content as string;
    expect(cwe).toMatch(/<List>1\. \w+ 2\. \w+ /);
    expect(cwe).toContain("<Question>What are the 10 most common words in the above list?</Question>");
  });
});
