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
const cli = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bin", "yardstick.js");
const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
const COLUMNS = 60;
const WIDE = 200;

describe("the progress display in a terminal", () => {
  it.skipIf(!hasTmux)(
    hasTmux ? `fits a ${COLUMNS}-column tmux pane, refits when widened to ${WIDE}, redraws in place, and its overall line counts the retries` : "SKIPPED: tmux is not installed, so the display cannot be checked in a real terminal",
    async () => {
      const server = await startDevServer({
        policy: (req) => toyAnswer(req.lastUserText),
        // Long enough a run (about 2 s of answering) to read the pane a few times at each width.
        latencyMs: { min: 50, max: 100 },
        // The first request is the preflight's GET /v1/models; faults hit chat requests early, so the
        // retries' backoff does not lengthen the run's tail.
        faults: { script: [null, "500", null, "429", "500", null, "500"], retryAfterSeconds: 0 },
      });
      const dir = makeSentimentTask(120);
      const out = join(dir, "run");
      const exitFile = join(dir, "exit-code");
      // A tmux server of this test's own: its sessions never mix with anyone else's.
      const socket = `yardstick-progress-${process.pid}`;
      const tmux = (...args: string[]) => spawnSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
      const command = [
        `env YARDSTICK_CACHE_DIR=${join(dir, "cache")}`,
        `${process.execPath} ${cli} run ${dir} --model openai-compatible:yardstick-dev --base-url ${server.url}/v1 --out ${out} --concurrency 4 --no-report;`,
        `echo $? > ${exitFile}; sleep 60`,
      ].join(" ");
      try {
        expect(tmux("new-session", "-d", "-x", String(COLUMNS), "-y", "20", command).status).toBe(0);
        // Read the pane at 60 columns until the display shows, then widen it to 200 while the run goes on.
        const narrow: string[] = [];
        const wide: string[] = [];
        const isDisplay = (line: string) => /^tasks \d+\/\d+ /.test(line) || line.startsWith("toy/en ");
        const deadline = Date.now() + 30_000;
        let resized = false;
        while (!existsSync(exitFile) && Date.now() < deadline) {
          const shown = tmux("capture-pane", "-p", "-J").stdout.split("\n").filter(isDisplay);
          (resized ? wide : narrow).push(...shown);
          if (!resized && narrow.filter((l) => l.startsWith("tasks ")).length >= 3) {
            expect(tmux("resize-window", "-x", String(WIDE)).status).toBe(0);
            resized = true;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(readFileSync(exitFile, "utf8").trim()).toBe("0");
        const history = tmux("capture-pane", "-p", "-J", "-S", "-").stdout.split("\n");

        expect(narrow.filter((l) => l.startsWith("tasks ")).length).toBeGreaterThan(0);
        expect(resized, "the run ended before the pane was widened").toBe(true);
        for (const line of narrow) expect(line.length, line).toBeLessThanOrEqual(COLUMNS);
        for (const line of [...wide, ...history.filter(isDisplay)]) expect(line.length, line).toBeLessThanOrEqual(WIDE);
        // Redrawn in place: the terminal keeps one overall line, not one per redraw.
        expect(history.filter((l) => l.startsWith("tasks ")), history.join("\n")).toHaveLength(1);

        const faults = Object.values(server.stats().faults).reduce((a, n) => a + n, 0);
        expect(faults).toBeGreaterThan(0);
        const overall = history.find((l) => l.startsWith("tasks "))!;
        // At 200 columns (the last redraw came after the resize) the labels are in full.
        expect(overall).toMatch(new RegExp(`^tasks 1/1 .*retries ${faults} errors 0`));
        const stats = runStatsSchema.parse(JSON.parse(readFileSync(join(out, "run-stats.json"), "utf8")));
        expect(stats.sessions[0]).toMatchObject({ requests: 120, retries: faults, errors: 0, samples: { done: 120, fromStore: 0 } });
        // results.json holds no times; of the run statistics only each task's retries, next to its errors.
        const results = readFileSync(join(out, "results.json"), "utf8");
        expect(results).not.toMatch(/wallSeconds|startedAt/);
        expect(Object.values(JSON.parse(results).meta.tasks)).toEqual([expect.objectContaining({ errors: 0, retries: faults })]);
      } finally {
        tmux("kill-server");
        await server.close();
      }
    },
    40_000,
  );
});
