/**
 * The HealthBench and AA-LCR loaders download their repository files from the Hub (the stand-in of
 * @yardstick/testing) into the Hugging Face cache layout, then read them from there: first run,
 * offline re-run, resume, token, pinned revision, and the errors.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { DataLoadError, DataloaderV1, Sample } from "@yardstick/core";
import type { HubRepoFiles, HubServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { withFileLock } from "./file-lock.js";
import { hub, loadErrorOf, tempDir } from "./hub.test-helper.js";
import type { SnapshotSettings } from "./hub-snapshot.js";
import { createSeahelmAaLcrDataloader } from "./seahelm-aa-lcr.js";
import { createSeahelmHealthbenchDataloader, HEALTHBENCH_FILES } from "./seahelm-healthbench.js";

const FIXTURES = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const fixture = (p: string): Buffer => readFileSync(path.join(FIXTURES, p));
const ZIP_PATH = "extracted_text/AA-LCR_extracted-text.zip";

/** The two repos as the Hub holds them: HealthBench's JSONL files as LFS files, AA-LCR's CSV a plain git file and its zip an LFS one. */
const FILES: HubRepoFiles = {
  "openai/healthbench": {
    ...Object.fromEntries(Object.values(HEALTHBENCH_FILES).map((f) => [f, { bytes: fixture(`healthbench/${f}`), lfs: true }])),
    "README.md": "# HealthBench\n",
  },
  "ArtificialAnalysis/AA-LCR": {
    "AA-LCR_Dataset.csv": fixture("aa-lcr/AA-LCR_Dataset.csv"),
    [ZIP_PATH]: { bytes: fixture(`aa-lcr/${ZIP_PATH}`), lfs: true },
    ".gitattributes": "*.zip filter=lfs diff=lfs merge=lfs -text\n",
  },
};

const FAST = { backoffBaseMs: 1, backoffMaxMs: 5, retries: 3 };

async function collect(loader: DataloaderV1, options: Record<string, unknown>): Promise<Sample[]> {
  const out: Sample[] = [];
  for await (const s of loader.load(options, {})) out.push(s);
  return out;
}

const loadError = (loader: DataloaderV1, options: Record<string, unknown>): Promise<DataLoadError> => loadErrorOf(() => collect(loader, options));

const healthbench = (s: SnapshotSettings) => createSeahelmHealthbenchDataloader({ ...FAST, ...s });
const aaLcr = (s: SnapshotSettings) => createSeahelmAaLcrDataloader({ ...FAST, ...s });
/** Downloads in the stand-in's log: path → requests. */
const downloads = (server: HubServer): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const r of server.stats().log) if (r.path.includes("/resolve/") && (r.status === 200 || r.status === 206)) out[r.path] = (out[r.path] ?? 0) + 1;
  return out;
};
const mainSha = async (server: HubServer, repo: string): Promise<string> =>
  ((await (await fetch(`${server.url}/api/datasets/${repo}/revision/main`)).json()) as { sha: string }).sha;

describe("seahelm-healthbench / seahelm-aa-lcr: files downloaded from the Hub into the Hugging Face cache", () => {
  it("downloads only the task's file once, in huggingface_hub's layout; re-runs read the cache, with the Hub stopped too", async () => {
    const server = await hub({ datasets: {}, files: FILES });
    const sha = await mainSha(server, "openai/healthbench");
    server.resetStats();
    const cache = tempDir();
    const loader = healthbench({ hubCacheDir: cache, endpoint: server.url });
    const first = await collect(loader, { subset: "healthbench_hard" });
    expect(first.map((s) => s.id)).toEqual(["0"]);
    const file = HEALTHBENCH_FILES.healthbench_hard;
    expect(downloads(server)).toEqual({ [`/datasets/openai/healthbench/resolve/${sha}/${file}`]: 1 });
    // refs/main → the commit; the snapshot's file a relative link to the blob named by its sha256.
    const repoDir = path.join(cache, "datasets--openai--healthbench");
    expect(readFileSync(path.join(repoDir, "refs", "main"), "utf8")).toBe(sha);
    const link = path.join(repoDir, "snapshots", sha, file);
    const blobName = path.basename(readlinkSync(link));
    expect(readlinkSync(link)).toBe(path.join("..", "..", "blobs", blobName));
    expect(readFileSync(path.join(repoDir, "blobs", blobName))).toEqual(fixture(`healthbench/${file}`));
    expect(await loader.fingerprint!({ subset: "healthbench_hard" }, {})).toMatch(new RegExp(`^hf:openai/healthbench@${sha}:sha256:[0-9a-f]{64}$`));

    // A second task of the same repo fetches its own file only; the first is not asked for again.
    expect(await collect(loader, { subset: "healthbench_consensus" })).toHaveLength(2);
    expect(Object.values(downloads(server))).toEqual([1, 1]);
    server.resetStats();
    expect(await collect(loader, { subset: "healthbench_hard" })).toEqual(first);
    expect(server.stats().requests).toBe(0);
    await server.close();
    const offline = healthbench({ hubCacheDir: cache, endpoint: server.url });
    expect(await collect(offline, { subset: "healthbench_hard" })).toEqual(first);
    expect(await offline.fingerprint!({ subset: "healthbench_consensus" }, {})).toContain(`@${sha}:`);
    // A file the cache does not hold, with the Hub unreachable: says so and what to do.
    const err = await loadError(offline, { subset: "healthbench" });
    expect(err.message).toMatch(/no complete local copy of the Hub dataset openai\/healthbench .*cannot be reached.*ECONNREFUSED.*huggingface-cli download/);
  });

  it("AA-LCR: the CSV (a plain git file) and the zip in its folder (LFS), checked against their ids; HF_TOKEN sent on every request", async () => {
    const server = await hub({ datasets: {}, files: FILES, token: "hf_secret" });
    const cache = tempDir();
    const samples = await collect(aaLcr({ hubCacheDir: cache, endpoint: server.url, token: "hf_secret" }), {});
    expect(samples.map((s) => s.id)).toEqual(["1", "2", "3"]);
    expect((samples[0]!.prompts[0] as { documents_text: string }).documents_text).toContain("BEGIN DOCUMENT 1:\nAnnual report 2023.");
    const log = server.stats().log;
    expect(log.length).toBeGreaterThan(0);
    expect(log.every((r) => r.authorized)).toBe(true);
    expect(Object.keys(downloads(server)).map((p) => p.slice(p.lastIndexOf("/resolve/") + 50))).toEqual(["AA-LCR_Dataset.csv", ZIP_PATH]);
    // Without the token the Hub hides the dataset: the message says to set HF_TOKEN.
    const refused = await loadError(aaLcr({ hubCacheDir: tempDir(), endpoint: server.url }), {});
    expect(refused.message).toMatch(/does not show this dataset without a token .*set HF_TOKEN/);
  });

  it("resumes an interrupted download from the bytes it has, with a range request", async () => {
    const zip = fixture(`aa-lcr/${ZIP_PATH}`);
    const server = await hub({ datasets: {}, files: FILES, faults: [{ kind: "cut", bytes: 100, path: "/datasets/ArtificialAnalysis/AA-LCR/resolve/", times: 2 }] });
    const cache = tempDir();
    // One attempt: the first run stops with the partial blob kept.
    const stopped = await loadError(aaLcr({ hubCacheDir: cache, endpoint: server.url, retries: 0 }), {});
    expect(stopped.message).toMatch(/downloading AA-LCR_Dataset\.csv stopped at 100 of \d+ bytes .*run again to resume from .*blobs\/[0-9a-f]{40}\.incomplete/);
    server.resetStats();
    // The next run continues the CSV at byte 100; cut again, it continues at 200 within the run.
    expect(await collect(aaLcr({ hubCacheDir: cache, endpoint: server.url }), {})).toHaveLength(3);
    const ranges = server.stats().log.filter((r) => r.path.includes("/resolve/")).map((r) => [path.posix.basename(r.path), r.range ?? null]);
    expect(ranges).toEqual([
      ["AA-LCR_Dataset.csv", "bytes=100-"],
      ["AA-LCR_Dataset.csv", "bytes=200-"],
      ["AA-LCR_extracted-text.zip", null],
    ]);
    const snapshot = path.join(cache, "datasets--ArtificialAnalysis--AA-LCR", "snapshots", await mainSha(server, "ArtificialAnalysis/AA-LCR"));
    expect(readFileSync(path.join(snapshot, "AA-LCR_Dataset.csv"))).toEqual(fixture("aa-lcr/AA-LCR_Dataset.csv"));
    expect(readFileSync(path.join(snapshot, ZIP_PATH))).toEqual(zip);
  });

  it("a pinned revision is fetched at that commit without asking for main, and needs no request once cached", async () => {
    const server = await hub({ datasets: {}, files: FILES });
    const sha = await mainSha(server, "openai/healthbench");
    server.resetStats();
    const cache = tempDir();
    const loader = healthbench({ hubCacheDir: cache, endpoint: server.url });
    expect(await collect(loader, { subset: "healthbench_hard", revision: sha })).toHaveLength(1);
    const paths = server.stats().log.map((r) => r.path);
    expect(paths.some((p) => p.includes("/revision/"))).toBe(false);
    expect(paths.filter((p) => p.includes("/resolve/"))).toEqual([`/datasets/openai/healthbench/resolve/${sha}/${HEALTHBENCH_FILES.healthbench_hard}`]);
    expect(existsSync(path.join(cache, "datasets--openai--healthbench", "refs", "main"))).toBe(false);
    server.resetStats();
    expect(await loader.fingerprint!({ subset: "healthbench_hard", revision: sha }, {})).toContain(`@${sha}:sha256:`);
    expect(server.stats().requests).toBe(0);
    const unknown = await loadError(loader, { subset: "healthbench_hard", revision: "f".repeat(40) });
    expect(unknown.message).toContain(`commit ${"f".repeat(40)} not found on the Hub`);
    const badBranch = await loadError(loader, { subset: "healthbench_hard", revision: "v9" });
    expect(badBranch.message).toContain('revision "v9" not found on the Hub');
  });

  it("a missing repository or file is a clear error; a lost snapshot link is restored from its blob", async () => {
    const server = await hub({ datasets: {}, files: FILES });
    const cache = tempDir();
    const noRepo = await loadError(healthbench({ hubCacheDir: cache, endpoint: server.url }), { subset: "healthbench", repo: "openai/nothing" });
    expect(noRepo.message).toMatch(/the Hub does not show this dataset without a token .*check the dataset id/);
    expect(noRepo.file).toBe("hf://datasets/openai/nothing");
    const noFile = await loadError(healthbench({ hubCacheDir: cache, endpoint: server.url }), { file: "data/other.jsonl" });
    expect(noFile.message).toMatch(/the Hub dataset openai\/healthbench has no file data\/other\.jsonl at commit [0-9a-f]{40}; it has no folder data/);
    const noTop = await loadError(aaLcr({ hubCacheDir: cache, endpoint: server.url }), { rows: "test.csv" });
    expect(noTop.message).toMatch(/has no file test\.csv at commit [0-9a-f]{40}; its top folder holds: .*AA-LCR_Dataset\.csv/);
    // Options stay inside the repo and the cache.
    const outside = await loadError(healthbench({ hubCacheDir: cache, endpoint: server.url }), { file: "../../secret.jsonl" });
    expect(outside.message).toContain('"../../secret.jsonl" is not a path inside the dataset repository openai/healthbench');
    expect(() => healthbench({}).checkOptions!({ subset: "healthbench", repo: "../x y" })).toThrow(/data\.options\.repo: seahelm-healthbench options: expected a dataset id such as "owner\/name"/);
    // A snapshot link deleted by hand is linked to its blob again, with no download.
    const loader = aaLcr({ hubCacheDir: cache, endpoint: server.url });
    await collect(loader, {});
    const sha = await mainSha(server, "ArtificialAnalysis/AA-LCR");
    const csvLink = path.join(cache, "datasets--ArtificialAnalysis--AA-LCR", "snapshots", sha, "AA-LCR_Dataset.csv");
    rmSync(csvLink);
    server.resetStats();
    expect(await collect(loader, {})).toHaveLength(3);
    expect(Object.keys(downloads(server))).toEqual([]);
  });

  it("follows the tree listing's pages to find a file", async () => {
    const server = await hub({ datasets: {}, files: FILES, treePageSize: 1 });
    expect(await collect(aaLcr({ hubCacheDir: tempDir(), endpoint: server.url }), {})).toHaveLength(3);
    const pages = server.stats().log.filter((r) => r.path.includes("/tree/") && !r.path.endsWith("/extracted_text"));
    expect(pages.map((r) => r.query.cursor ?? "")).toEqual(["", "1", "2"]);
  });

  it("a load and a fingerprint at once share one download of the file", async () => {
    const server = await hub({ datasets: {}, files: FILES });
    const loader = healthbench({ hubCacheDir: tempDir(), endpoint: server.url });
    const [fingerprint, samples] = await Promise.all([loader.fingerprint!({ subset: "healthbench" }, {}), collect(loader, { subset: "healthbench" })]);
    expect(samples).toHaveLength(3);
    expect(fingerprint).toMatch(/^hf:openai\/healthbench@[0-9a-f]{40}:sha256:/);
    expect(Object.values(downloads(server))).toEqual([1]);
  });

  it("waits while another process holds the download's lock, then downloads", async () => {
    const server = await hub({ datasets: {}, files: FILES });
    const cache = tempDir();
    const logs: string[] = [];
    const loader = healthbench({ hubCacheDir: cache, endpoint: server.url });
    const sha256 = createHash("sha256").update(fixture(`healthbench/${HEALTHBENCH_FILES.healthbench_hard}`)).digest("hex");
    const lock = path.join(cache, ".locks", "datasets--openai--healthbench", `${sha256}.yardstick.lock`);
    let loading: Promise<Sample[]> | undefined;
    await withFileLock(lock, async () => {
      loading = (async () => {
        const out: Sample[] = [];
        for await (const s of loader.load({ subset: "healthbench_hard" }, { log: (m) => logs.push(m) })) out.push(s);
        return out;
      })();
      await new Promise((r) => setTimeout(r, 300));
      expect(server.stats().downloads).toBe(0);
    });
    expect(await loading).toHaveLength(1);
    expect(logs.some((l) => l.includes(`waiting for process ${process.pid} `))).toBe(true);
    expect(server.stats().downloads).toBe(1);
  });

  it("says without a request where a load would get the files: download, cached, unavailable offline, local", async () => {
    const server = await hub({ datasets: {}, files: FILES });
    const cache = tempDir();
    const loader = healthbench({ hubCacheDir: cache, endpoint: server.url });
    const hard = { subset: "healthbench_hard" };
    expect(await loader.hubDataStatus(hard)).toEqual({ repo: "openai/healthbench", revision: "main", state: "download" });
    expect(await healthbench({ hubCacheDir: cache, offline: true }).hubDataStatus(hard)).toMatchObject({ state: "unavailable" });
    await collect(loader, hard);
    server.resetStats();
    expect(await loader.hubDataStatus(hard)).toMatchObject({ state: "cached" });
    expect(await loader.hubDataStatus({ subset: "healthbench" })).toMatchObject({ state: "download" });
    expect(await aaLcr({ hubCacheDir: cache }).hubDataStatus({ dir: "anywhere" })).toMatchObject({ repo: "ArtificialAnalysis/AA-LCR", state: "local" });
    expect(server.stats().requests).toBe(0);
  });
});
