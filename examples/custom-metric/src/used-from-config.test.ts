import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { main } from "@yardstick/runner";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";

const tasks = join(dirname(fileURLToPath(import.meta.url)), "..", "tasks");
const CAPITALS: Record<string, string> = { France: "Paris", Japan: "Tokyo", Kenya: "Nairobi", Peru: "Lima" };

function sink(): Writable & { text: string } {
  const w = new Writable({
    write(chunk, _e, cb) {
      w.text += String(chunk);
      cb();
    },
  }) as Writable & { text: string };
  w.text = "";
  return w;
}

describe("keyword-coverage used from a config through yardstick run", () => {
  it("loads the plugin package named in the config and scores with it", async () => {
    // A "model" that knows four of the eight capitals and names only the country otherwise.
    const server = await startDevServer({
      port: 0,
      policy: (req) => {
        const country = /capital of (\w+)/.exec(req.lastUserText)?.[1] ?? "";
        const city = CAPITALS[country];
        return city ? `The capital of ${country} is ${city}.` : `I am not sure about ${country}.`;
      },
    });
    try {
      const out = join(mkdtempSync(join(tmpdir(), "custom-metric-")), "run");
      const stdout = sink();
      const stderr = sink();
      const code = await main(
        ["run", tasks, "--model", "openai-compatible:capitals-model", "--base-url", `${server.url}/v1`, "--out", out, "--quiet"],
        { stdout, stderr, env: { YARDSTICK_CACHE_DIR: join(out, "..", "cache") }, cwd: process.cwd() },
      );
      expect(code, stderr.text).toBe(0);
      const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
      const capitals = results.en.knowledge.capitals;
      // 4 rows with both keywords (100), 4 with the country only (50).
      expect(capitals.mean_coverage).toBe(75);
      expect(capitals.full_coverage).toBe(50);
      expect(results.en.knowledge.total).toBe(75);
      expect(stdout.text).toMatch(/capitals\s+en\s+mean_coverage\s+75\.00/);
    } finally {
      await server.close();
    }
  });
});
