import { existsSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { YardstickError } from "@yardstick/core";
import { describeError, exitCodeOf, terminalSafe } from "./report-error.js";

describe("describeError", () => {
  it.skipIf(!existsSync("/dev/full"))("a full disk met anywhere is a message saying so, not an internal error", () => {
    let err: unknown;
    try {
      writeFileSync("/dev/full", "x".repeat(10_000));
    } catch (e) {
      err = e;
    }
    expect(describeError(err)).toMatch(/^error: .*cannot write: no space left \(ENOSPC\); free some space and run the command again$/);
    expect(exitCodeOf(err)).toBe(1);
  });

  it("a path that cannot be made or written is the machine's state (exit 1), a bug is an internal error (exit 70)", () => {
    const errno = (code: string) => Object.assign(new Error(`${code}: x`), { code, path: "/proc/q" });
    expect(describeError(errno("ENOENT"))).toBe("error: no such file or folder: /proc/q");
    expect(describeError(errno("EROFS"))).toBe("error: permission denied (EROFS): /proc/q");
    expect(describeError(errno("ENOTDIR"))).toBe("error: not a folder: /proc/q (a file is in the way)");
    for (const code of ["ENOENT", "EACCES", "EPERM", "EROFS", "ENOTDIR"]) expect(exitCodeOf(errno(code))).toBe(1);
    expect(exitCodeOf(new YardstickError("bad input"))).toBe(1);
    expect(exitCodeOf(new TypeError("x is undefined"))).toBe(70);
    expect(describeError(new TypeError("x is undefined"))).toMatch(/^error: internal error: x is undefined/);
  });
});

describe("terminalSafe", () => {
  it("shows control characters as \\xNN and keeps newlines, tabs and other scripts", () => {
    expect(terminalSafe("a\x1b[2J\x07\x00b\x9b\n\tสวัสดี")).toBe("a\\x1b[2J\\x07\\x00b\\x9b\n\tสวัสดี");
  });
});
