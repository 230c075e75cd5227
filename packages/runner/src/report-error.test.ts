import { existsSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { describeError, terminalSafe } from "./report-error.js";

describe("describeError", () => {
  it.skipIf(!existsSync("/dev/full"))("a full disk met anywhere is a message saying so, not an internal error", () => {
    let err: unknown;
    try {
      writeFileSync("/dev/full", "x".repeat(10_000));
    } catch (e) {
      err = e;
    }
    expect(describeError(err)).toMatch(/^error: .*cannot write: no space left \(ENOSPC\); free some space and run the command again$/);
  });
});

describe("terminalSafe", () => {
  it("shows control characters as \\xNN and keeps newlines, tabs and other scripts", () => {
    expect(terminalSafe("a\x1b[2J\x07\x00b\x9b\n\tสวัสดี")).toBe("a\\x1b[2J\\x07\\x00b\\x9b\n\tสวัสดี");
  });
});
