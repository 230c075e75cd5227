import { YardstickError } from "@yardstick/core";

/**
 * Turns any error into the one message a user sees. Known errors print their message (which already
 * names the file, position and key path); anything else is a bug in yardstick and says so, still
 * without a stack trace unless YARDSTICK_DEBUG is set.
 */
export function describeError(err: unknown): string {
  if (YardstickError.isInstance(err)) return `error: ${err.message}`;
  const known = describeSystemError(err);
  if (known !== undefined) return `error: ${known}`;
  const message = err instanceof Error ? err.message : String(err);
  return `error: internal error: ${message} (set YARDSTICK_DEBUG=1 for a stack trace and please report it)`;
}

/** The exit code of a failed command: 1 for bad input or the machine's state (a missing file, a full disk), 70 for a bug. */
export function exitCodeOf(err: unknown): number {
  return YardstickError.isInstance(err) || describeSystemError(err) !== undefined ? 1 : 70;
}

/** Errors of the file system a user can act on (a missing or unwritable path, a full disk), in words. */
function describeSystemError(err: unknown): string | undefined {
  if (!(err instanceof Error && "code" in err && typeof (err as NodeJS.ErrnoException).code === "string")) return undefined;
  const e = err as NodeJS.ErrnoException;
  if (e.code === "ENOENT") return `no such file or folder: ${e.path ?? e.message}`;
  if (e.code === "EACCES" || e.code === "EPERM" || e.code === "EROFS") return `permission denied (${e.code}): ${e.path ?? e.message}`;
  if (e.code === "ENOTDIR") return `not a folder: ${e.path ?? e.message} (a file is in the way)`;
  // A full disk met outside the run store and the cache (the report, run-stats.json): still no bug.
  if (e.code === "ENOSPC" || e.code === "EDQUOT" || e.code === "EFBIG") {
    return `${e.path ?? "a file"}: cannot write: no space left (${e.code}); free some space and run the command again`;
  }
  return undefined;
}

/**
 * Text from a config or data file, made safe to print: control characters (escape sequences that
 * would recolour, clear or retitle the terminal, bells, NULs of a binary file) are shown as `\xNN`.
 * Newlines and tabs stay.
 */
export function terminalSafe(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

export function printError(err: unknown, stderr: NodeJS.WritableStream): void {
  stderr.write(`${terminalSafe(describeError(err))}\n`);
  if (process.env.YARDSTICK_DEBUG && err instanceof Error && err.stack) stderr.write(`${err.stack}\n`);
}
