/** The Hub stand-in's parquet branch: tree, `/parquet` listing, file downloads with ranges, revisions, auth. */
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { type HubServer, startHubServer } from "./hf-hub-server.js";

const REPO = "org/data";
const FILE_A = new Uint8Array(Array.from({ length: 64 }, (_, i) => i));
const FILE_B = new Uint8Array([9, 8, 7]);
const BRANCH = encodeURIComponent("refs/convert/parquet");

const servers: HubServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function hub(token?: string): Promise<HubServer> {
  const s = await startHubServer({
    datasets: {},
    revisions: { [REPO]: "a".repeat(40) },
    parquet: { [REPO]: { default: { test: [FILE_A, FILE_B] } } },
    ...(token ? { token } : {}),
  });
  servers.push(s);
  return s;
}

const json = async (url: string, init?: RequestInit): Promise<{ status: number; body: unknown; headers: Headers }> => {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json(), headers: res.headers };
};

describe("hub stand-in: parquet branch", () => {
  it("resolves the branch to its own commit and lists its tree one level at a time", async () => {
    const s = await hub();
    const info = await json(`${s.url}/api/datasets/${REPO}/revision/${BRANCH}`);
    const sha = (info.body as { sha: string }).sha;
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(sha).not.toBe("a".repeat(40));
    expect((await json(`${s.url}/api/datasets/${REPO}/tree/${sha}`)).body).toEqual([
      { type: "directory", oid: expect.any(String), size: 0, path: "default" },
    ]);
    const files = (await json(`${s.url}/api/datasets/${REPO}/tree/${BRANCH}/default/test`)).body as { path: string; size: number; lfs: { oid: string } }[];
    expect(files.map((f) => [f.path, f.size])).toEqual([
      ["default/test/0000.parquet", 64],
      ["default/test/0001.parquet", 3],
    ]);
    expect(files[0]!.lfs.oid).toBe(createHash("sha256").update(FILE_A).digest("hex"));
    const missing = await json(`${s.url}/api/datasets/${REPO}/tree/${sha}/default/train`);
    expect([missing.status, missing.headers.get("x-error-code")]).toEqual([404, "EntryNotFound"]);
    const badRev = await json(`${s.url}/api/datasets/${REPO}/tree/${"f".repeat(40)}`);
    expect([badRev.status, badRev.headers.get("x-error-code")]).toEqual([404, "RevisionNotFound"]);
  });

  it("lists parquet URLs that redirect to the files", async () => {
    const s = await hub();
    const urls = (await json(`${s.url}/api/datasets/${REPO}/parquet/default/test`)).body as string[];
    expect(urls).toEqual([0, 1].map((n) => `${s.url}/api/datasets/${REPO}/parquet/default/test/${n}.parquet`));
    expect((await json(`${s.url}/api/datasets/${REPO}/parquet`)).body).toEqual({ default: { test: urls } });
    const bytes = new Uint8Array(await (await fetch(urls[1]!)).arrayBuffer());
    expect([...bytes]).toEqual([...FILE_B]);
    expect((await fetch(`${s.url}/api/datasets/${REPO}/parquet/other`)).status).toBe(404);
  });

  it("serves files whole, by range, and HEAD, with 416 past the end", async () => {
    const s = await hub();
    const url = `${s.url}/datasets/${REPO}/resolve/${BRANCH}/default/test/0000.parquet`;
    const whole = await fetch(url);
    expect([whole.status, whole.headers.get("accept-ranges"), whole.headers.get("content-length")]).toEqual([200, "bytes", "64"]);
    await whole.arrayBuffer();
    const part = await fetch(url, { headers: { range: "bytes=60-" } });
    expect([part.status, part.headers.get("content-range")]).toEqual([206, "bytes 60-63/64"]);
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([60, 61, 62, 63]);
    const suffix = await fetch(url, { headers: { range: "bytes=-2" } });
    expect([...new Uint8Array(await suffix.arrayBuffer())]).toEqual([62, 63]);
    const head = await fetch(url, { method: "HEAD" });
    expect([head.status, head.headers.get("content-length"), head.headers.get("etag")]).toEqual([
      200,
      "64",
      `"${createHash("sha256").update(FILE_A).digest("hex")}"`,
    ]);
    const past = await fetch(url, { headers: { range: "bytes=64-" } });
    expect([past.status, past.headers.get("content-range")]).toEqual([416, "bytes */64"]);
    expect(s.stats().log.filter((l) => l.range !== undefined).map((l) => l.range)).toEqual(["bytes=60-", "bytes=-2", "bytes=64-"]);
  });

  it("cuts a download short when told to, and hides private files as the Hub does", async () => {
    const s = await startHubServer({
      datasets: {},
      token: "hf_ok",
      parquet: { [REPO]: { default: { test: [FILE_A] } } },
      faults: [{ kind: "cut", bytes: 10, path: `/datasets/${REPO}/resolve/` }],
    });
    servers.push(s);
    const url = `${s.url}/datasets/${REPO}/resolve/${BRANCH}/default/test/0000.parquet`;
    // The fault applies to the first download request, answered with only 10 of the 64 bytes.
    const cut = await fetch(url, { headers: { authorization: "Bearer hf_ok" } });
    expect(cut.headers.get("content-length")).toBe("64");
    await expect(cut.arrayBuffer()).rejects.toThrow();
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: "Bearer wrong" } })).status).toBe(404);
    const ok = await fetch(url, { headers: { authorization: "Bearer hf_ok" } });
    expect((await ok.arrayBuffer()).byteLength).toBe(64);
  });

  it("has no parquet branch for a dataset without parquet files", async () => {
    const s = await startHubServer({ datasets: { [REPO]: { default: { test: [{ id: 1 }] } } } });
    servers.push(s);
    const info = await json(`${s.url}/api/datasets/${REPO}/revision/${BRANCH}`);
    expect([info.status, info.headers.get("x-error-code")]).toEqual([404, "RevisionNotFound"]);
  });
});
