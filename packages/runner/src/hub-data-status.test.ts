/**
 * `yardstick ls` and `validate` on SEA-HELM's AA-LCR config, whose files come from the Hub: with an
 * empty Hugging Face cache they say the dataset downloads on first run; offline (HF_HUB_OFFLINE) the
 * task cannot run here; with the snapshot cached, nothing is said. No request is made (HF_ENDPOINT
 * points at a closed port).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

const here = dirname(fileURLToPath(import.meta.url));
const CONFIG = join(here, "..", "..", "config", "src", "__fixtures__", "seahelm_tasks", "long_context", "AA-LCR");
const dir = mkdtempSync(join(tmpdir(), "ys-hub-status-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const io = captureIO({ YARDSTICK_CACHE_DIR: join(dir, "cache"), HF_ENDPOINT: "http://127.0.0.1:9", ...env }, dir);
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

describe("ls and validate: tasks whose Hub files are not cached", () => {
  it("empty cache: downloads on first run; offline: cannot run here; cached: nothing to say", async () => {
    const empty = { HF_HUB_CACHE: join(dir, "empty") };
    const ls = await cli(["ls", CONFIG], empty);
    expect(ls.code, ls.err).toBe(0);
    expect(ls.out).toMatch(/aa-lcr .*hf:ArtificialAnalysis\/AA-LCR \(downloads on first run\)\s+yes/);
    const validate = await cli(["validate", CONFIG], empty);
    expect(validate.code, validate.err).toBe(0);
    expect(validate.out).toMatch(/^ok: 1 task\(s\), 1 task-language pair\(s\)\n$/);
    expect(validate.err).toContain("note: downloads ArtificialAnalysis/AA-LCR on first run (aa-lcr/en)");

    const offline = { ...empty, HF_HUB_OFFLINE: "1" };
    const lsOffline = await cli(["ls", CONFIG], offline);
    expect(lsOffline.out).toMatch(/hf:ArtificialAnalysis\/AA-LCR \(not cached, offline\)\s+no: data-not-cached/);
    expect(lsOffline.out).toContain("aa-lcr/en reads the Hub dataset ArtificialAnalysis/AA-LCR (revision main), which is not in the Hugging Face cache, and HF_HUB_OFFLINE forbids downloading it");
    const strict = await cli(["validate", CONFIG, "--strict"], offline);
    expect(strict.code).toBe(1);
    expect(strict.err).toContain("error: data-not-cached: 1 task(s), 1 task-language pair(s) cannot run here");

    const cache = join(dir, "cached");
    const repoDir = join(cache, "datasets--ArtificialAnalysis--AA-LCR");
    mkdirSync(join(repoDir, "refs"), { recursive: true });
    writeFileSync(join(repoDir, "refs", "main"), "2".repeat(40));
    cpSync(join(here, "..", "..", "dataloaders", "src", "__fixtures__", "aa-lcr"), join(repoDir, "snapshots", "2".repeat(40)), { recursive: true });
    const cached = await cli(["validate", CONFIG], { HF_HUB_CACHE: cache, HF_HUB_OFFLINE: "1" });
    expect(cached.code, cached.err).toBe(0);
    expect(cached.err).not.toContain("note:");
    expect((await cli(["ls", CONFIG], { HF_HUB_CACHE: cache })).out).toMatch(/hf:ArtificialAnalysis\/AA-LCR\s+yes/);
  });
});
