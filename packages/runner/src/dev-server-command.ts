// Type-only: this module must load without any other @yardstick package but spatial (see its test).
import type { CliCommandSpec } from "@yardstick/core";
import type { CliIO } from "./io.js";
import { spatialSolverPolicy } from "./spatial-policy.js";

export const DEV_SERVER_MISSING =
  "the dev server is in @yardstick/testing; install it with npm i -D @yardstick/testing, or run npx yardstick-dev-server";

/**
 * `yardstick dev-server`: the local OpenAI-compatible server, with yardstick's named policies. The
 * server lives in @yardstick/testing, an optional (dev) dependency of the runner, so it is loaded
 * only here, when the command runs.
 */
export async function devServerCommand(argv: string[], io: CliIO): Promise<number> {
  let testing: typeof import("@yardstick/testing");
  try {
    testing = await import("@yardstick/testing");
  } catch (err) {
    if (!isMissingPackage(err, "@yardstick/testing")) throw err;
    io.stderr.write(`error: ${DEV_SERVER_MISSING}\n`);
    return 1;
  }
  return testing.runDevServerCli(argv, {
    policies: { "spatial-solver": spatialSolverPolicy },
    command: "yardstick dev-server",
    terminal: io.stdout,
    stdout: (line) => io.stdout.write(`${line}\n`),
    stderr: (line) => io.stderr.write(`${line}\n`),
  });
}

/** The dev server's help (its option table lives in @yardstick/testing), or none when that is not installed. */
export async function devServerHelp(): Promise<readonly CliCommandSpec[]> {
  try {
    const { DEV_SERVER_HELP } = await import("@yardstick/testing");
    return [{ ...DEV_SERVER_HELP, command: "yardstick dev-server" }];
  } catch (err) {
    if (!isMissingPackage(err, "@yardstick/testing")) throw err;
    return [{ command: "yardstick dev-server", summary: DEV_SERVER_MISSING, flags: {} }];
  }
}

/** True when `err` says `name` itself is not installed (not one of its own dependencies). */
function isMissingPackage(err: unknown, name: string): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === "ERR_MODULE_NOT_FOUND" && typeof e.message === "string" && e.message.includes(`'${name}'`);
}
