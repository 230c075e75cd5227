import { runDevServerCli } from "@yardstick/testing";
import { spatialSolverPolicy } from "./spatial-policy.js";
import type { CliIO } from "./io.js";

/** `yardstick dev-server`: the local OpenAI-compatible server, with yardstick's named policies. */
export async function devServerCommand(argv: string[], io: CliIO): Promise<number> {
  return runDevServerCli(argv, {
    policies: { "spatial-solver": spatialSolverPolicy },
    stdout: (line) => io.stdout.write(`${line}\n`),
    stderr: (line) => io.stderr.write(`${line}\n`),
  });
}
