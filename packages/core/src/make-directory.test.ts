import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeDirectory, makeDirectorySync } from "./make-directory.js";

describe("makeDirectory", () => {
  for (const [name, make] of [
    ["async", makeDirectory],
    ["sync", async (p: string) => makeDirectorySync(p)],
  ] as const) {
    it(`${name}: makes every missing folder, accepts one that exists, refuses a file in the way`, async () => {
      const root = mkdtempSync(join(tmpdir(), "ys-mkdir-"));
      await make(join(root, "a", "b", "c"));
      expect(existsSync(join(root, "a", "b", "c"))).toBe(true);
      await make(join(root, "a", "b"));
      writeFileSync(join(root, "file"), "");
      await expect(make(join(root, "file", "x"))).rejects.toMatchObject({ code: "ENOTDIR" });
      await expect(make(join(root, "file"))).rejects.toMatchObject({ code: "ENOTDIR" });
      symlinkSync(join(root, "nowhere", "deep"), join(root, "dangling"));
      await expect(make(join(root, "dangling", "x"))).rejects.toBeInstanceOf(Error);
    });

    // Node's recursive mkdir spins here forever (ENOENT for the child, EEXIST for /proc, retried).
    it.runIf(existsSync("/proc/self"))(`${name}: a folder that cannot be made under /proc fails at once instead of spinning`, async () => {
      await expect(make("/proc/yardstick-no-such/out")).rejects.toMatchObject({ code: "ENOENT" });
    });
  }
});
