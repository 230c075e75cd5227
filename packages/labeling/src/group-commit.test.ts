import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createLabelingServer, type LabelingServer } from "./server.js";
import { LabelStore } from "./store.js";
import { addTinyTask, Client, corpusDataDir } from "./test-helpers.js";

// The crash test runs the built server (dist/) in a child process, as `label serve` does.
const DIST_INDEX = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "index.js")).href;
const CHILD = `
const { createLabelingServer } = await import(${JSON.stringify(DIST_INDEX)});
const [dataDir, labelers] = [process.argv[1], Number(process.argv[2])];
const server = createLabelingServer({ dataDir, adminToken: "admin-token-for-tests" });
const tokens = Array.from({ length: labelers }, (_, i) => server.store.addLabeler("l" + i));
process.stdout.write(JSON.stringify({ url: await server.listen(0, "127.0.0.1"), tokens }) + "\\n");
`;

const servers: LabelingServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const storedKeys = (dir: string): string[] => {
  const db = new Database(join(dir, "labels.sqlite"), { readonly: true });
  const rows = db.prepare("SELECT l.name AS labeler, a.item AS line FROM assignments a JOIN labelers l ON l.id = a.labeler_id WHERE a.state = 'done'").all() as {
    labeler: string;
    line: number;
  }[];
  db.close();
  return rows.map((r) => `${r.labeler}:${r.line}`);
};
const fileKeys = (dir: string): string[] =>
  readFileSync(join(dir, "results", "tiny_results.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l))
    .map((l: { labeler: string; line: number }) => `${l.labeler}:${l.line}`);

/** Labels in a loop (each answer carries the next sample) until `stop()` says so; returns the acknowledged keys. */
async function labelLoop(client: Client, name: string, stop: () => boolean, acked: string[]): Promise<void> {
  let item = (await client.call("GET", "/api/task/tiny/next")).json.item;
  while (item && !stop()) {
    const r = await client.call("POST", "/api/results/tiny", { line: item.line, feedback: { verdict: item.line % 2 ? "good" : "bad" } });
    if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
    acked.push(`${name}:${item.line}`);
    item = r.json.item;
  }
}

describe("group commit", () => {
  it("stores every acknowledged submission of many concurrent labelers once, in SQLite and the results file", async () => {
    const dir = corpusDataDir();
    addTinyTask(dir, 400);
    const server = createLabelingServer({ dataDir: dir, adminToken: "admin-token-for-tests" });
    servers.push(server);
    const base = await server.listen(0, "127.0.0.1");
    const names = Array.from({ length: 20 }, (_, i) => `c${i}`);
    const clients = names.map((n) => new Client(base, server.store.addLabeler(n)));
    const acked: string[] = [];
    await Promise.all(clients.map((c, i) => labelLoop(c, names[i] as string, () => false, acked)));
    // 400 lines, one label each: every line labeled exactly once, by whoever got it.
    expect(acked).toHaveLength(400);
    expect(new Set(acked.map((k) => k.split(":")[1])).size).toBe(400);
    expect(storedKeys(dir).sort()).toEqual([...acked].sort());
    expect(fileKeys(dir).sort()).toEqual([...acked].sort());
    const progress = (await new Client(base, "admin-token-for-tests").call("GET", "/api/task/tiny/progress")).json;
    expect(progress).toMatchObject({ labels: 400, completeItems: 400 });
    expect(progress.labelers.reduce((n: number, l: { done: number }) => n + l.done, 0)).toBe(400);
  });

  it("loses no acknowledged submission when the server process is killed mid-load", async () => {
    const dir = corpusDataDir();
    addTinyTask(dir, 5000);
    const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD, dir, "10"], { stdio: ["ignore", "pipe", "inherit"] });
    const [first] = await once(createInterface({ input: child.stdout }), "line");
    const { url, tokens } = JSON.parse(first as string) as { url: string; tokens: string[] };
    const acked: string[] = [];
    const loops = tokens.map((t, i) => labelLoop(new Client(url, t), `l${i}`, () => false, acked).catch(() => undefined));
    // Kill (no clean shutdown) while every labeler has a submission in flight.
    const deadline = Date.now() + 10_000;
    while (acked.length < 300 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(acked.length).toBeGreaterThanOrEqual(300);
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;
    await Promise.all(loops);
    const stored = storedKeys(dir);
    expect(new Set(stored).size).toBe(stored.length);
    for (const k of acked) expect(stored).toContain(k);
    // The next start brings the results file in step with the database.
    servers.push(createLabelingServer({ dataDir: dir, adminToken: "admin-token-for-tests" }));
    expect(fileKeys(dir).sort()).toEqual([...stored].sort());
  });
});

describe("a late submission", () => {
  it("is refused with 409 and releases the line, so the labeler moves on instead of getting it again", async () => {
    const dir = corpusDataDir();
    addTinyTask(dir, 3);
    const server = createLabelingServer({ dataDir: dir, adminToken: "admin-token-for-tests", leaseMs: 1 });
    servers.push(server);
    const base = await server.listen(0, "127.0.0.1");
    const [a, b] = ["a", "b"].map((n) => new Client(base, server.store.addLabeler(n))) as [Client, Client];
    expect((await a.call("GET", "/api/task/tiny/next")).json.item.line).toBe(2);
    await new Promise((r) => setTimeout(r, 5)); // a's lease runs out
    expect((await b.call("GET", "/api/task/tiny/next")).json.item.line).toBe(2);
    expect((await b.call("POST", "/api/results/tiny", { line: 2, feedback: { verdict: "good" } })).status).toBe(200);
    const late = await a.call("POST", "/api/results/tiny", { line: 2, feedback: { verdict: "bad" } });
    expect(late.status).toBe(409);
    expect(late.json.error).toMatch(/already has its 1 label/);
    expect((await a.call("GET", "/api/task/tiny/next")).json.item.line).not.toBe(2); // not the refused line again
    expect(fileKeys(dir)).toEqual(["b:2"]);
  });
});

describe("the in-memory open region", () => {
  /** The next line by the rule, computed from the stored rows alone (what the store's view must agree with). */
  function expectedNext(dir: string, labelerId: number, lines: number[], perItem: number): number | undefined {
    const db = new Database(join(dir, "labels.sqlite"), { readonly: true });
    const rows = db.prepare("SELECT item, labeler_id AS labeler, state FROM assignments WHERE task = 't'").all() as { item: number; labeler: number; state: string }[];
    db.close();
    const open = rows.find((r) => r.labeler === labelerId && r.state === "assigned");
    if (open) return open.item;
    return lines.find((line) => {
      const of = rows.filter((r) => r.item === line);
      return !of.some((r) => r.labeler === labelerId) && of.filter((r) => r.state !== "skipped").length < perItem;
    });
  }

  it("gives the same next sample as the stored rows through submits, skips, refused calls and undos", async () => {
    const dir = corpusDataDir();
    const store = new LabelStore(dir);
    for (const name of ["a", "b", "c"]) store.addLabeler(name);
    const ids = [1, 2, 3];
    const lines = Array.from({ length: 30 }, (_, i) => i + 2);
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    try {
      for (let step = 0; step < 300; step++) {
        const id = ids[Math.floor(random() * ids.length)] as number;
        const want = expectedNext(dir, id, lines, 2);
        const got = await store.batched(() => store.next("t", id, lines, 2, 60_000));
        expect(got, `step ${step}`).toBe(want);
        if (got === undefined) break;
        const action = random();
        if (action < 0.6) await store.batched(() => store.submit("t", id, got, "{}", null, 2));
        else if (action < 0.75) store.skip("t", id, got);
        else if (action < 0.85) await store.batched(() => store.undo("t", id)).catch(() => undefined);
        else {
          // A batched call that assigns, then fails: rolled back with its savepoint, views dropped.
          const other = ids.find((x) => x !== id) as number;
          await expect(
            store.batched(() => {
              store.next("t", other, lines, 2, 60_000);
              return store.submit("t", other, 999, "{}", null, 2);
            }),
          ).rejects.toThrow(/not assigned/);
        }
      }
    } finally {
      store.close();
    }
  });
});
