import { once } from "node:events";
import { createServer } from "node:http";
import { resolve } from "node:path";
import { type CliCommandSpec, defineFlags } from "@yardstick/core";
import { buildReport } from "@yardstick/report";
import { z } from "zod";
import { UsageError, checkFlag, intFlag, parseFlags } from "./args.js";
import type { CliIO } from "./io.js";
import { pairedCompare, SAMPLES_PER_TASK_FLAG, samplesPerTaskFlag } from "./report-command.js";
import { requireSomeRun } from "./run-folders.js";
import { untilStopped } from "./until-stopped.js";

const VIEW_FLAGS = defineFlags({
  port: { type: "string", value: "N", default: "0, any free port", description: "the port to listen on" },
  ...SAMPLES_PER_TASK_FLAG,
});

export const VIEW_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick view",
    summary: "Serves the HTML report of the run stores on 127.0.0.1, prints its URL and runs until Ctrl-C.",
    positionals: [{ name: "RUN [RUN...]", description: "run stores (several are shown side by side)" }],
    flags: VIEW_FLAGS,
  },
];

/** `yardstick view`: the report served on 127.0.0.1 (never on another interface); `stop` ends it besides SIGINT/SIGTERM. */
export async function viewCommand(argv: string[], io: CliIO, stop?: AbortSignal): Promise<number> {
  const { values, positionals } = parseFlags(argv, VIEW_FLAGS);
  if (positionals.length === 0) throw new UsageError("view: give at least one run folder");
  const port = checkFlag("port", z.union([z.literal("0").transform(() => 0), intFlag(1, 65535)]), values.port ?? "0");
  const runs = positionals.map((p) => resolve(io.cwd, p));
  requireSomeRun(runs, "view");
  const report = await buildReport({ runs, compare: pairedCompare, samplesPerTask: samplesPerTaskFlag(values["samples-per-task"]) });
  for (const { run, problems } of report.problems) {
    for (const problem of problems) io.stderr.write(`warning: ${run}: ${problem}\n`);
  }
  const body = Buffer.from(report.html, "utf8");
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if ((req.method !== "GET" && req.method !== "HEAD") || (path !== "/" && path !== "/report.html")) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found: the report is at /\n");
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length, "cache-control": "no-store" });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  server.listen(port, "127.0.0.1");
  await Promise.race([once(server, "listening"), once(server, "error").then(([err]) => Promise.reject(err))]).catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`--port: cannot listen on 127.0.0.1:${port} (${err.code ?? err.message})`);
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : port}/`;
  io.stdout.write(`report of ${runs.length} run${runs.length > 1 ? "s" : ""} (${report.samples} samples) at ${url}\npress Ctrl-C to stop\n`);

  await untilStopped(stop);
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
  io.stdout.write("stopped\n");
  return 0;
}
