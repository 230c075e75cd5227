import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

describe("the installed commands", () => {
  it("yardstick and yardstick-dev-server run from node_modules/.bin after a build", () => {
    const help = spawnSync(join(root, "node_modules", ".bin", "yardstick"), ["--help"], { encoding: "utf8" });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain("usage: yardstick <command>");
    const dev = spawnSync(join(root, "node_modules", ".bin", "yardstick-dev-server"), ["--help"], { encoding: "utf8" });
    expect(dev.status, dev.stderr).toBe(0);
  });
});
