import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * `mkdir -p` that fails instead of spinning. Node's own `mkdir(path, { recursive: true })` loops
 * forever at full CPU on Linux when a parent exists but cannot hold the child (a path under /proc
 * or /sys, a stale mount): the kernel answers ENOENT for the child and EEXIST for the parent, and
 * Node retries the pair without end. Here each missing folder is made once, from the deepest one
 * that exists, and the first failure is thrown (an ENOENT then means "this folder cannot be made").
 */
export async function makeDirectory(path: string): Promise<void> {
  // A stat per missing level and a mkdir each: a few system calls, done synchronously.
  makeDirectorySync(path);
}

/** `makeDirectory`, synchronously (the one implementation). */
export function makeDirectorySync(path: string): void {
  const missing: string[] = [];
  for (let at = resolve(path); ; ) {
    try {
      if (statSync(at).isDirectory()) break;
      throw notADirectory(at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    missing.push(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
}

/** What mkdir itself reports for a path whose existing part is a file. */
function notADirectory(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: "ENOTDIR", errno: -20, syscall: "mkdir", path });
}
