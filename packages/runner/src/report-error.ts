import { YardstickError } from "@yardstick/core";

/**
 * Turns any error into the one message a user sees. Known errors print their message (which already
 * names the file, position and key path); anything else is a bug in yardstick and says so, still
 * without a stack trace unless YARDSTICK_DEBUG is set.
 */
export function describeError(err: unknown): string {
  if (YardstickError.isInstance(err)) return `error: ${err.message}`;
  if (err instanceof Error && "code" in err && typeof (err as NodeJS.ErrnoException).code === "string") {
    const e = err as NodeJS.ErrnoException;
    if (e.code === "ENOENT") return `error: no such file or folder: ${e.path ?? e.message}`;
    if (e.code === "EACCES") return `error: permission denied: ${e.path ?? e.message}`;
    // A full disk met outside the run store and the cache (the report, run-stats.json): still no bug.
    if (e.code === "ENOSPC" || e.code === "EDQUOT" || e.code === "EFBIG") {
      return `error: ${e.path ?? "a file"}: cannot write: no space left (${e.code}); free some space and run the command again`;
    }
  }
  const message = err instanceof Error ? err.message : String(err);
  return `error: internal error: ${message} (set YARDSTICK_DEBUG=1 for a stack trace and please report it)`;
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
