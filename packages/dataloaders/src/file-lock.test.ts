/** The cross-process lock file around Hub downloads: one holder at a time, stale locks taken over, released on failure. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { withFileLock } from "./file-lock.js";

const dir = mkdtempSync(path.join(tmpdir(), "ys-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("withFileLock", () => {
  it("lets one holder in at a time; the waiter is told who holds it", async () => {
    const lock = path.join(dir, "a", "x.lock");
    const events: string[] = [];
    const waits: string[] = [];
    const first = withFileLock(lock, async () => {
      events.push("first in");
      await pause(150);
      events.push("first out");
    });
    await pause(20);
    const second = withFileLock(lock, async () => void events.push("second in"), { pollMs: 10, onWait: (h) => waits.push(h) });
    await Promise.all([first, second]);
    expect(events).toEqual(["first in", "first out", "second in"]);
    expect(waits).toEqual([`${process.pid} ${hostname()}`]);
    expect(existsSync(lock)).toBe(false);
  });

  it("takes over a lock whose process is gone, and releases the lock when the work fails", async () => {
    const lock = path.join(dir, "b.lock");
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(lock, `${dead} ${hostname()}`);
    await expect(withFileLock(lock, async () => "done", { pollMs: 10 })).resolves.toBe("done");
    await expect(withFileLock(lock, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(existsSync(lock)).toBe(false);
  });

  it("waits for a live lock of another host until aborted", async () => {
    const lock = path.join(dir, "c.lock");
    writeFileSync(lock, "4242 some-other-host");
    const signal = AbortSignal.timeout(80);
    let ran = false;
    await expect(withFileLock(lock, async () => void (ran = true), { pollMs: 10, signal })).rejects.toThrow();
    expect(ran).toBe(false);
    expect(existsSync(lock)).toBe(true);
  });
});
