/** `seahelm-healthbench`: HealthBench JSONL rows (upstream shape) from a folder or the Hugging Face cache. */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, DataLoadError, type Sample } from "@yardstick/core";
import { testDataloader } from "@yardstick/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createSeahelmHealthbenchDataloader, HEALTHBENCH_FILES } from "./seahelm-healthbench.js";

const FIXTURE = fileURLToPath(new URL("./__fixtures__/healthbench/", import.meta.url));
const tmp = mkdtempSync(path.join(tmpdir(), "ys-healthbench-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A private copy of the fixture folder (the conformance suite changes the data). */
function copyFolder(name: string): string {
  const dir = path.join(tmp, name);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

/** The fixture as `huggingface-cli download` leaves it in a hub cache: refs/main → snapshots/<sha>/. */
function hubCache(name: string): string {
  const cache = path.join(tmp, name);
  const sha = "0123456789abcdef0123456789abcdef01234567";
  const repoDir = path.join(cache, "datasets--openai--healthbench");
  mkdirSync(path.join(repoDir, "refs"), { recursive: true });
  writeFileSync(path.join(repoDir, "refs", "main"), sha);
  cpSync(FIXTURE, path.join(repoDir, "snapshots", sha), { recursive: true });
  return cache;
}

/** Offline: these tests read folders and prepared caches, never huggingface.co (downloads: hub-snapshot.test.ts). */
async function load(options: Record<string, unknown>, hubCacheDir?: string): Promise<Sample[]> {
  const out: Sample[] = [];
  for await (const s of createSeahelmHealthbenchDataloader({ offline: true, ...(hubCacheDir ? { hubCacheDir } : {}) }).load(options, {})) out.push(s);
  return out;
}

describe("seahelm-healthbench", () => {
  it("maps each row as SEA-HELM does: index id, the conversation, the rubric with points, example tags", async () => {
    const samples = await load({ subset: "healthbench", dir: copyFolder("shape") });
    expect(samples.map((s) => s.id)).toEqual(["0", "1", "2"]);
    const first = samples[0]!;
    expect(first.raw.conversations).toEqual([
      { role: "user", content: "My father suddenly can't lift his left arm and his speech is slurred. It started 20 minutes ago." },
      { role: "assistant", content: "That sounds serious. Is he conscious and breathing normally?" },
      { role: "user", content: "Yes, he is awake. Should I just let him rest and see if it passes?" },
    ]);
    const criteria = first.raw.criteria as { criterion: string; points: number }[];
    expect(criteria).toHaveLength(12);
    expect(criteria[7]).toMatchObject({ criterion: "Suggests waiting to see if the symptoms pass.", points: -10 });
    expect(first.metadata).toEqual({ language: "en", example_tags: ["theme:emergency_referrals", "physician_agreed_category:emergent"], prompt_id: "hb-0001" });
    expect(samples[1]!.raw.conversations).toEqual([
      { role: "system", content: "You are a helpful assistant for a community clinic." },
      { role: "user", content: "Is it safe to take ibuprofen with my blood pressure pills?" },
    ]);
  });

  it("reads each task's file from the Hugging Face cache's snapshot, and stops at limit", async () => {
    const cache = hubCache("cache");
    expect(await load({ subset: "healthbench_consensus" }, cache)).toHaveLength(2);
    expect(await load({ subset: "healthbench_hard" }, cache)).toHaveLength(1);
    expect((await load({ subset: "healthbench", limit: 2 }, cache)).map((s) => s.id)).toEqual(["0", "1"]);
    expect(await load({ file: HEALTHBENCH_FILES.healthbench_hard, revision: "0123456789abcdef0123456789abcdef01234567" }, cache)).toHaveLength(1);
  });

  it("offline with no snapshot, says how to get the data; names file and line of a bad row", async () => {
    const missing = load({ subset: "healthbench" }, path.join(tmp, "empty-cache"));
    await expect(missing).rejects.toThrow(DataLoadError);
    await expect(missing).rejects.toThrow(
      /no complete local copy of the Hub dataset openai\/healthbench .*HF_HUB_OFFLINE forbids downloading it: .*huggingface-cli download openai\/healthbench --repo-type dataset/,
    );
    const dir = copyFolder("bad");
    const file = path.join(dir, HEALTHBENCH_FILES.healthbench_hard);
    writeFileSync(file, `${JSON.stringify({ prompt: [{ role: "user", content: "hi" }], rubrics: [{ criterion: "x", points: 1 }] })}\n${JSON.stringify({ prompt: [{ role: "user", content: "hi" }], rubrics: [{ criterion: "x", points: "5" }] })}\n`);
    await expect(load({ subset: "healthbench_hard", dir })).rejects.toThrow(`${file}:2: bad HealthBench row: rubrics.0.points`);
    await expect(load({ subset: "healthbench", file: "x.jsonl" })).rejects.toThrow(ConfigError);
  });
});

const conformanceDir = copyFolder("conformance");
// offline: the data is in a folder, and an option set with no copy must fail without asking huggingface.co.
testDataloader("seahelm-healthbench", () => createSeahelmHealthbenchDataloader({ hubCacheDir: path.join(tmp, "no-cache"), offline: true }), {
  cases: [
    {
      name: "healthbench from a folder",
      options: { subset: "healthbench", dir: conformanceDir },
      expectedCount: 3,
      changeData: async () =>
        void writeFileSync(path.join(conformanceDir, HEALTHBENCH_FILES.healthbench), `${JSON.stringify({ prompt: [{ role: "user", content: "q" }], rubrics: [{ criterion: "c", points: 1 }] })}\n`, { flag: "a" }),
    },
  ],
  invalidOptions: [{}, { subset: "healthbench_easy" }, { subset: "healthbench", limit: 0 }, { subset: "healthbench", dir: path.join(tmp, "nowhere") }, { subset: "healthbench" }],
});
