/** The Hub stand-in's ordinary repository files (what `snapshot_download` fetches): tree at main, downloads, ETags, errors. */
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { type HubServer, startHubServer } from "./hf-hub-server.js";

const REPO = "org/files";
const ZIP = new Uint8Array(Array.from({ length: 100 }, (_, i) => (i * 7) % 256));
const servers: HubServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function hub(): Promise<HubServer> {
  const s = await startHubServer({ datasets: {}, files: { [REPO]: { "rows.csv": "a,b\n1,2\n", "docs/all.zip": { bytes: ZIP, lfs: true } } } });
  servers.push(s);
  return s;
}

const json = async (url: string): Promise<{ status: number; body: any; headers: Headers }> => {
  const res = await fetch(url);
  return { status: res.status, body: await res.json(), headers: res.headers };
};

describe("hub stand-in: repository files on main", () => {
  it("resolves main to a commit, lists the tree at main or that commit, LFS files with their sha256", async () => {
    const s = await hub();
    const sha = (await json(`${s.url}/api/datasets/${REPO}/revision/main`)).body.sha as string;
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    const top = await json(`${s.url}/api/datasets/${REPO}/tree/main`);
    expect(top.body).toEqual([
      { type: "file", oid: expect.stringMatching(/^[0-9a-f]{40}$/), size: 8, path: "rows.csv" },
      { type: "directory", oid: expect.any(String), size: 0, path: "docs" },
    ]);
    const docs = await json(`${s.url}/api/datasets/${REPO}/tree/${sha}/docs`);
    expect(docs.body).toEqual([
      { type: "file", oid: expect.any(String), size: 100, path: "docs/all.zip", lfs: { oid: createHash("sha256").update(ZIP).digest("hex"), size: 100, pointerSize: 134 } },
    ]);
    expect((await json(`${s.url}/api/datasets/${REPO}/tree/${sha}/nope`)).headers.get("x-error-code")).toBe("EntryNotFound");
    expect((await json(`${s.url}/api/datasets/${REPO}/tree/${"b".repeat(40)}`)).headers.get("x-error-code")).toBe("RevisionNotFound");
  });

  it("serves the files with ranges; a plain file's ETag is its git blob id, an LFS file's its sha256", async () => {
    const s = await hub();
    const sha = (await json(`${s.url}/api/datasets/${REPO}/revision/main`)).body.sha as string;
    const csv = await fetch(`${s.url}/datasets/${REPO}/resolve/${sha}/rows.csv`);
    expect(await csv.text()).toBe("a,b\n1,2\n");
    expect(csv.headers.get("etag")).toBe(`"${createHash("sha1").update("blob 8\0a,b\n1,2\n").digest("hex")}"`);
    expect(csv.headers.get("x-repo-commit")).toBe(sha);
    const part = await fetch(`${s.url}/datasets/${REPO}/resolve/main/docs/all.zip`, { headers: { range: "bytes=90-" } });
    expect(part.status).toBe(206);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(ZIP.subarray(90));
    expect(part.headers.get("etag")).toBe(`"${createHash("sha256").update(ZIP).digest("hex")}"`);
    const missing = await fetch(`${s.url}/datasets/${REPO}/resolve/main/other.csv`);
    expect([missing.status, missing.headers.get("x-error-code")]).toEqual([404, "EntryNotFound"]);
    const unknownRepo = await fetch(`${s.url}/datasets/org/none/resolve/main/rows.csv`);
    expect([unknownRepo.status, unknownRepo.headers.get("x-error-code")]).toEqual([401, "RepoNotFound"]);
    expect(s.stats().downloads).toBe(2);
  });
});
