import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, DataLoadError, type Sample } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { createHuggingFaceDataloader, loadHuggingFace } from "./huggingface.js";
import { FAST, hub, loaders, tempDir } from "./hub.test-helper.js";
import { builtinDataloaders } from "./index.js";
import { loadSeahelmLocal } from "./seahelm-local.js";

const FIXTURES = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
// The dataset viewer path (`source: "viewer"`); the parquet path and the fallback are in huggingface-parquet.test.ts.
const REPO = "aisingapore/test-set";

const makeRows = (n: number, prefix = "q"): Record<string, unknown>[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${i}`,
    prompts: [{ text: `question ${i}` }],
    label: i % 2 === 0 ? "A" : "B",
    metadata: { category: "c" },
  }));

const { collect, loadError } = loaders({ source: "viewer" });

describe("huggingface dataloader", () => {
  it("is registered and streams a split across pages of 100 rows", async () => {
    const server = await hub({ datasets: { [REPO]: { id: { eval: makeRows(250) } } } });
    expect(builtinDataloaders.huggingface?.id).toBe("huggingface");
    const samples: Sample[] = [];
    for await (const s of builtinDataloaders.huggingface!.load({ source: "viewer", repo: REPO, name: "id", split: "eval", endpoint: server.url })) {
      samples.push(s);
    }
    expect(samples.map((s) => s.id)).toEqual(makeRows(250).map((r) => r.id));
    expect(samples[7]).toMatchObject({ id: "q7", prompts: [{ text: "question 7" }], label: "B", metadata: { category: "c" } });
    const rowRequests = server.stats().log.filter((l) => l.path === "/rows");
    expect(rowRequests.map((l) => [l.query.offset, l.query.length])).toEqual([
      ["0", "100"],
      ["100", "100"],
      ["200", "100"],
    ]);
    expect(rowRequests.every((l) => l.query.dataset === REPO && l.query.config === "id" && l.query.split === "eval")).toBe(true);
  });

  it("stops at an exact multiple of the page size without another request, and streams lazily", async () => {
    const server = await hub({ datasets: { [REPO]: { id: { eval: makeRows(200) } } } });
    expect(await collect({ repo: REPO, name: "id", split: "eval", endpoint: server.url })).toHaveLength(200);
    expect(server.stats().rows).toBe(2);
    server.resetStats();
    // Reading only the first sample fetches only the first page.
    for await (const _ of loadHuggingFace({ source: "viewer", repo: REPO, name: "id", split: "eval", endpoint: server.url }, {}, FAST)) break;
    expect(server.stats().rows).toBe(1);
    server.resetStats();
    expect(await collect({ repo: REPO, name: "id", split: "eval", endpoint: server.url, limit: 101 })).toHaveLength(101);
    expect(server.stats().rows).toBe(2);
  });

  it("reads the few-shot split and an empty split", async () => {
    const server = await hub({ datasets: { [REPO]: { th: { eval: makeRows(3), examples: makeRows(2, "ex"), empty: [] } } } });
    const examples = await collect({ repo: REPO, name: "th", split: "examples", endpoint: server.url });
    expect(examples.map((s) => s.id)).toEqual(["ex0", "ex1"]);
    expect(await collect({ repo: REPO, name: "th", split: "empty", endpoint: server.url })).toEqual([]);
  });

  it("uses the only config when no name is given, and asks for one when there are several", async () => {
    const one = await hub({ datasets: { [REPO]: { default: { eval: makeRows(2) } } } });
    expect(await collect({ repo: REPO, split: "eval", endpoint: one.url })).toHaveLength(2);
    const many = await hub({ datasets: { [REPO]: { id: { eval: [] }, th: { eval: [] } } } });
    await expect(collect({ repo: REPO, split: "eval", endpoint: many.url })).rejects.toThrow(/several configs.*id \(eval\); th \(eval\)/);
  });

  it("lists the configs and splits that exist when the requested one is missing", async () => {
    const server = await hub({ datasets: { [REPO]: { id: { eval: makeRows(1), examples: makeRows(1) }, th: { eval: makeRows(1) } } } });
    const noConfig = await loadError({ repo: REPO, name: "vi", split: "eval", endpoint: server.url });
    expect(noConfig.message).toContain(`hf://datasets/${REPO}`);
    expect(noConfig.message).toContain('config "vi" not found');
    expect(noConfig.message).toContain("id (eval, examples); th (eval)");
    const noSplit = await loadError({ repo: REPO, name: "th", split: "examples", endpoint: server.url });
    expect(noSplit.message).toMatch(/split "examples" not found in config "th" \(404\); it has: eval/);
    expect(server.stats().splits).toBe(2);
  });

  it("explains a gated dataset (401) and sends the token as a Bearer header", async () => {
    const secret = "hf_secret_token_value";
    const server = await hub({ token: secret, datasets: { [REPO]: { id: { eval: makeRows(2) } } } });
    const gated = await loadError({ repo: REPO, name: "id", split: "eval", endpoint: server.url });
    expect(gated.message).toMatch(/private or gated.*set HF_TOKEN/);
    expect(server.stats().unauthorized).toBe(1);
    // Wrong token: the viewer answers 404 for both /rows and /splits (it hides whether the dataset exists).
    const wrong = await loadError({ repo: REPO, name: "id", split: "eval", endpoint: server.url, token: "hf_wrong" });
    expect(wrong.message).toMatch(/dataset not found, or not readable with the current token/);
    expect(wrong.message).not.toContain("hf_wrong");
    // Right token, from the options or from the factory's settings (the runner's route).
    expect(await collect({ repo: REPO, name: "id", split: "eval", endpoint: server.url, token: secret })).toHaveLength(2);
    const loader = createHuggingFaceDataloader({ ...FAST, token: secret });
    const viaSettings: Sample[] = [];
    for await (const s of loader.load({ source: "viewer", repo: REPO, name: "id", split: "eval", endpoint: server.url })) viaSettings.push(s);
    expect(viaSettings).toHaveLength(2);
    expect(server.stats().log.filter((l) => l.status === 200).every((l) => l.authorized)).toBe(true);
  });

  it("a 401 with a token says the token was rejected", async () => {
    const server = await hub({ datasets: {}, faults: [{ kind: "status", status: 401, path: "/rows" }] });
    const e = await loadError({ repo: REPO, name: "id", split: "eval", endpoint: server.url, token: "hf_x" });
    expect(e.message).toMatch(/rejected the Hugging Face token \(401.*check HF_TOKEN/);
    expect(e.message).not.toContain("hf_x");
  });

  it("a 403 says to accept the gated dataset's conditions", async () => {
    const server = await hub({ datasets: { [REPO]: { id: { eval: makeRows(1) } } }, faults: [{ kind: "status", status: 403, path: "/rows" }] });
    const e = await loadError({ repo: REPO, name: "id", split: "eval", endpoint: server.url, token: "t" });
    expect(e.message).toMatch(/access denied \(403.*accept the dataset's conditions/);
  });

  it("fails on a truncated cell, naming repo, config, split, row and cell", async () => {
    const server = await hub({
      datasets: { [REPO]: { id: { eval: makeRows(150) } } },
      truncate: [{ repo: REPO, config: "id", split: "eval", row: 120, cells: ["prompts"] }],
    });
    const seen: string[] = [];
    let error: unknown;
    try {
      for await (const s of loadHuggingFace({ source: "viewer", repo: REPO, name: "id", split: "eval", endpoint: server.url }, {}, FAST)) seen.push(s.id);
    } catch (e) {
      error = e;
    }
    expect(seen).toHaveLength(120);
    expect(DataLoadError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `hf://datasets/${REPO}: config "id", split "eval", row 120: the dataset viewer truncated the cell(s) "prompts" (it shortens cells of large rows); this row cannot be read through the viewer API — use a local copy of the data (seahelm-local)`,
    );
  });

  it("retries 503 and 429 (with Retry-After) and dropped connections, within bounds", async () => {
    const server = await hub({
      datasets: { [REPO]: { id: { eval: makeRows(120) } } },
      faults: [
        { kind: "status", status: 503, times: 2, offset: 0 },
        { kind: "status", status: 429, retryAfter: 0, offset: 100 },
        { kind: "reset", offset: 100 },
      ],
    });
    expect(await collect({ repo: REPO, name: "id", split: "eval", endpoint: server.url })).toHaveLength(120);
    expect(server.stats().faults).toBe(4);
    expect(server.stats().rows).toBe(6);

    const down = await hub({ datasets: { [REPO]: { id: { eval: makeRows(1) } } }, faults: [{ kind: "status", status: 503, times: 100 }] });
    const e = await loadError({ repo: REPO, name: "id", split: "eval", endpoint: down.url });
    expect(e.message).toMatch(/after 4 attempt\(s\) \(last: HTTP 503: Unexpected error\.\)/);
    expect(down.stats().rows).toBe(4);
  });

  it("reports an unreachable endpoint after the retries", async () => {
    const server = await hub({ datasets: {} });
    const url = server.url;
    await server.close();
    const e = await loadError({ repo: REPO, name: "id", split: "eval", endpoint: url }, { ...FAST, retries: 1 });
    expect(e.message).toMatch(/could not get rows 0-99 of config "id", split "eval" from the dataset viewer at http:\/\/127\.0\.0\.1:\d+ after 2 attempt\(s\) \(last: ECONNREFUSED/);
  });

  it("reports malformed JSON and an unexpected response shape", async () => {
    const server = await hub({ datasets: { [REPO]: { id: { eval: makeRows(1) } } }, faults: [{ kind: "malformed" }] });
    const e = await loadError({ repo: REPO, name: "id", split: "eval", endpoint: server.url });
    expect(e.message).toMatch(/malformed JSON in the dataset viewer's \/rows \(config "id", split "eval", offset 0\) response/);
  });

  it("reports a bad row with its row index", async () => {
    const rows = makeRows(3);
    rows[1] = { id: "x", prompts: [] };
    const server = await hub({ datasets: { [REPO]: { id: { eval: rows } } } });
    const e = await loadError({ repo: REPO, name: "id", split: "eval", endpoint: server.url });
    expect(e.message).toMatch(new RegExp(`^hf://datasets/${REPO}: config "id", split "eval", row 1: bad row: prompts: `));
    const dup = await hub({ datasets: { [REPO]: { id: { eval: [...makeRows(2), makeRows(1)[0]!] } } } });
    const d = await loadError({ repo: REPO, name: "id", split: "eval", endpoint: dup.url });
    expect(d.message).toContain('row 2: duplicate id "q0" (first seen at row 0)');
  });

  it("caches pages on disk: a second load sends no request, even with the server gone", async () => {
    const cacheDir = tempDir();
    const server = await hub({ datasets: { [REPO]: { id: { eval: makeRows(250) } } } });
    const options = { repo: REPO, name: "id", split: "eval", endpoint: server.url, cacheDir };
    const first = await collect(options);
    expect(server.stats().rows).toBe(3);
    server.resetStats();
    const second = await collect(options);
    expect(server.stats().requests).toBe(0);
    expect(second).toEqual(first);
    await server.close();
    expect(await collect(options)).toEqual(first);
    // One file per page, named by offset, under repo/revision/config/split; no temporary files left.
    const dir = path.join(cacheDir, encodeURIComponent(REPO), "main", "id", "eval");
    expect(readdirSync(dir).sort()).toEqual(["rows-0.json", "rows-100.json", "rows-200.json"]);
  });

  it("resumes from a partly filled cache and refetches a corrupt page", async () => {
    const cacheDir = tempDir();
    const server = await hub({ datasets: { [REPO]: { id: { eval: makeRows(250) } } } });
    const options = { repo: REPO, name: "id", split: "eval", endpoint: server.url, cacheDir };
    await collect({ ...options, limit: 150 });
    expect(server.stats().rows).toBe(2);
    server.resetStats();
    const dir = path.join(cacheDir, encodeURIComponent(REPO), "main", "id", "eval");
    writeFileSync(path.join(dir, "rows-0.json"), '{"format":1,"respo');
    expect(await collect(options)).toHaveLength(250);
    expect(server.stats().log.map((l) => l.query.offset)).toEqual(["0", "200"]);
    expect(JSON.parse(readFileSync(path.join(dir, "rows-0.json"), "utf8")).response.rows).toHaveLength(100);
  });

  it("checks a pinned revision against X-Revision, and keys the cache by it", async () => {
    const sha = "0123456789abcdef0123456789abcdef01234567";
    const server = await hub({ datasets: { [REPO]: { id: { eval: makeRows(2) } } }, revisions: { [REPO]: sha } });
    expect(await collect({ repo: REPO, name: "id", split: "eval", endpoint: server.url, revision: sha })).toHaveLength(2);
    const other = "f".repeat(40);
    const e = await loadError({ repo: REPO, name: "id", split: "eval", endpoint: server.url, revision: other });
    expect(e.message).toContain(`pinned revision ${other}, but the dataset viewer serves ${sha}`);
    await expect(collect({ repo: REPO, name: "id", split: "eval", endpoint: server.url, revision: "v1.0" })).rejects.toThrow(ConfigError);
  });

  it("checks its options", async () => {
    await expect(collect({ repo: "not a repo", split: "eval" })).rejects.toThrow(/data\.options\.repo/);
    await expect(collect({ repo: REPO })).rejects.toThrow(/data\.options\.split/);
    await expect(collect({ repo: REPO, split: "eval", endpoint: "ftp://x" })).rejects.toThrow(ConfigError);
  });

  it("gives the same Samples as seahelm-local for the same rows", async () => {
    for (const [fixture, labelField] of [
      ["global_mmlu_lite_id_test.jsonl", undefined],
      ["zh_BiPaR_sample.jsonl", undefined],
      ["id_general.jsonl", "prompt_label"],
    ] as const) {
      const file = path.join(FIXTURES, fixture);
      const rows = readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const server = await hub({ datasets: { [REPO]: { id: { eval: rows } } } });
      const extra = labelField === undefined ? {} : { labelField };
      const local: Sample[] = [];
      for await (const s of loadSeahelmLocal({ path: file, ...extra })) local.push(s);
      const remote = await collect({ repo: REPO, name: "id", split: "eval", endpoint: server.url, ...extra });
      expect(remote).toEqual(local);
      expect(remote).toHaveLength(rows.length);
    }
  });
});
