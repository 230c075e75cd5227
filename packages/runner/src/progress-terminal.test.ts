import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runStatsSchema } from "@yardstick/run-format";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";

// The progress display in a real terminal: the CLI runs inside a tmux pane 60 columns wide, and the
// pane is read while the display redraws. tmux's -J joins rows the terminal wrapped, so a display
// line that wrapped shows up as one line wider than the pane.
const cli = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "cli.js");
const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
const COLUMNS = 60;

describe("the progress display in a terminal", () => {
  it.skipIf(!hasTmux)(
    hasTmux ? `fits a ${COLUMNS}-column tmux pane, redraws in place, and its overall line counts the retries` : "SKIPPED: tmux is not installed, so the display cannot be checked in a real terminal",
    async () => {
      const server = await startDevServer({
        policy: (req) => toyAnswer(req.lastUserText),
        latencyMs: { min: 10, max: 40 },
        faults: { rate500: 0.1, rate429: 0.05, retryAfterSeconds: 0 },
        seed: 7,
      });
      const dir = makeSentimentTask(150);
      const out = join(dir, "run");
      const exitFile = join(dir, "exit-code");
      // A tmux server of this test's own: its sessions never mix with anyone else's.
      const socket = `yardstick-progress-${process.pid}`;
      const tmux = (...args: string[]) => spawnSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
      const command = [
        `env YARDSTICK_CACHE_DIR=${join(dir, "cache")}`,
        `${process.execPath} ${cli} run ${dir} --model openai-compatible:yardstick-dev --base-url ${server.url}/v1 --out ${out} --concurrency 6 --no-report;`,
        `echo $? > ${exitFile}; sleep 60`,
      ].join(" ");
      try {
        expect(tmux("new-session", "-d", "-x", String(COLUMNS), "-y", "20", command).status).toBe(0);
        const snapshots: string[][] = [];
        const deadline = Date.now() + 30_000;
        while (!existsSync(exitFile) && Date.now() < deadline) {
          snapshots.push(tmux("capture-pane", "-p", "-J").stdout.split("\n"));
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(readFileSync(exitFile, "utf8").trim()).toBe("0");
        const history = tmux("capture-pane", "-p", "-J", "-S", "-").stdout.split("\n");

        const isDisplay = (line: string) => /^tasks \d+\/\d+ /.test(line) || line.startsWith("toy/en ");
        const displayed = [...snapshots.flat(), ...history].filter(isDisplay);
        expect(displayed.filter((l) => l.startsWith("tasks ")).length).toBeGreaterThan(0);
        for (const line of displayed) expect(line.length, line).toBeLessThanOrEqual(COLUMNS);
        // Redrawn in place: the terminal keeps one overall line, not one per redraw.
        expect(history.filter((l) => l.startsWith("tasks ")), history.join("\n")).toHaveLength(1);

        const faults = Object.values(server.stats().faults).reduce((a, n) => a + n, 0);
        expect(faults).toBeGreaterThan(0);
        const overall = history.find((l) => l.startsWith("tasks "))!;
        expect(overall).toMatch(new RegExp(`^tasks 1/1 .*retry ${faults} err 0`));
        const stats = runStatsSchema.parse(JSON.parse(readFileSync(join(out, "run-stats.json"), "utf8")));
        expect(stats.sessions[0]).toMatchObject({ requests: 150, retries: faults, errors: 0, samples: { done: 150, fromStore: 0 } });
        // results.json holds no run statistics (its bytes depend on the answers alone).
        expect(readFileSync(join(out, "results.json"), "utf8")).not.toMatch(/retries|wallSeconds/);
      } finally {
        tmux("kill-server");
        await server.close();
      }
    },
    40_000,
  );
});
