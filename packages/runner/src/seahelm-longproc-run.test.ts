import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, type DevServerRequest, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

// SEA-HELM's LongProc Countdown and Path Traversal configs as in the corpus (the config package's
// fixtures), with two hand-written rows each in upstream's data format (the metrics package's
// fixtures): `yardstick run` asks the dev server, whose answers are right for one row of each task
// and wrong for the other, and the ported metrics score them.

const here = dirname(fileURLToPath(import.meta.url));
const CONFIGS = join(here, "..", "..", "config", "src", "__fixtures__", "seahelm_tasks", "long_context", "longproc");
const ROWS = join(here, "..", "..", "metrics", "src", "seahelm", "__fixtures__", "longproc");

const row = (family: string, index: number) =>
  JSON.parse(readFileSync(join(ROWS, `${family}_en.jsonl`), "utf8").trim().split("\n")[index]!) as { label: unknown };

/** The answers a model would give: a right one for the first row of each task, a wrong one for the second. */
function answer(request: DevServerRequest): string {
  const text = request.lastUserText;
  if (text.includes("Numbers: [6, 4, 3, 2]")) return `# Search Procedure\n${(row("countdown", 0).label as { search_procedure: string }).search_procedure}`;
  if (text.includes("Numbers: [9, 5, 2, 3]")) return "<Search Procedure>\nInitial number set: [9, 5, 2, 3], target: 19.\n</Search Procedure>\n<Solution>\n9 + 5 = 14\n14 + 2 = 16\n16 + 2 = 18\n</Solution>";
  if (text.includes("route from Arden to Elgin")) return `<Route>\n${row("path_traversal", 0).label as string}\n</Route>`;
  if (text.includes("route from Brill to Dunmore")) return "<Route>\nFrom Brill, take a train to Corwen.\nFrom Corwen, take a bus to Dunmore.\n</Route>";
  return "I do not know.";
}

let dev: DevServer;
let dir: string;
let tasks: string;
beforeAll(async () => {
  dev = await startDevServer({ port: 0, models: ["gen"], policy: answer });
  dir = mkdtempSync(join(tmpdir(), "ys-longproc-run-"));
  tasks = join(dir, "seahelm_tasks");
  for (const [family, file] of [
    ["countdown", "countdown_0.5k_en.jsonl"],
    ["path_traversal", "path_traversal_0.5k_en.jsonl"],
  ] as const) {
    const folder = join(tasks, "long_context", "longproc", family);
    mkdirSync(join(folder, "data"), { recursive: true });
    cpSync(join(CONFIGS, family, "config.yaml"), join(folder, "config.yaml"));
    cpSync(join(ROWS, `${family}_en.jsonl`), join(folder, "data", file));
  }
});
afterAll(async () => {
  await dev.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("SEA-HELM LongProc tasks end to end", () => {
  it("run: countdown and path traversal are asked and scored by the ported metrics", async () => {
    const out = join(dir, "run");
    const args = ["run", tasks, "--tasks", "countdown_0p5k,path_traversal_0p5k", "--model", "openai-compatible:gen", "--base-url", `${dev.url}/v1`];
    const io = captureIO({ YARDSTICK_CACHE_DIR: join(dir, "cache") }, dir);
    expect(await main([...args, "--out", out, "--no-report", "--quiet"], io), io.err()).toBe(0);
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    for (const task of ["countdown_0p5k/en", "path_traversal_0p5k/en"]) expect(results.meta.tasks[task]).toMatchObject({ samples: 2, errors: 0 });
    const countdown = results.en["long-context"].countdown_0p5k;
    // Row 1 right. Row 2: the solution uses 2 twice and ends at 18; its procedure's first line
    // differs from the reference's, so its partial accuracy is 0. Both solutions were extracted.
    expect(countdown).toMatchObject({ normalized_accuracy: 50, accuracy: 50, partial_accuracy: 50, extraction_rate: 100 });
    const route = results.en["long-context"].path_traversal_0p5k;
    // Row 1 exact; row 2 wrong from its second line: 1 of 2 lines.
    expect(route.normalized_accuracy).toBe(50);
    expect(route.partial_accuracy).toBe(75);
  });
});
