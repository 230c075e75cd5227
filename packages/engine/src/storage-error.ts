import { YardstickError } from "@yardstick/core";

/**
 * A file yardstick keeps (the run store's files, the request cache) could not be written or read:
 * a full disk, a size limit, a damaged SQLite page. The message names the file and what to do; the
 * CLI prints it as it is, without a stack trace. What was stored before the failure is kept.
 */
export class StorageError extends YardstickError {
  override readonly code = "storage";
  readonly file: string;
  /** The operating system's or SQLite's code, e.g. ENOSPC, SQLITE_FULL, SQLITE_CORRUPT. */
  readonly reason: string;

  constructor(file: string, reason: string, message: string, cause?: unknown) {
    super(`${file}: ${message}`, cause === undefined ? {} : { cause });
    this.file = file;
    this.reason = reason;
  }

  static override isInstance(value: unknown): value is StorageError {
    return YardstickError.isInstance(value) && value.code === "storage";
  }
}

const NO_SPACE = new Set(["ENOSPC", "EDQUOT"]);

/** Why writing failed, in words, from an errno code. */
function writeProblem(code: string): string {
  if (NO_SPACE.has(code)) return `no space left on the disk (${code})`;
  if (code === "EFBIG") return "the file reached the size limit for files (EFBIG, see ulimit -f)";
  if (code === "EROFS") return "the file system is read-only (EROFS)";
  if (code === "EACCES" || code === "EPERM") return `permission denied (${code})`;
  return `the operating system refused the write (${code})`;
}

/**
 * The error of a failed write to a run-store file. Anything that is not an operating-system error
 * (a bug) is returned as it is.
 */
export function runStoreWriteError(err: unknown, file: string, storeDir: string): unknown {
  if (YardstickError.isInstance(err)) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== "string") return err;
  const fix = NO_SPACE.has(code) || code === "EFBIG" ? "free some space" : "fix that";
  return new StorageError(
    file,
    code,
    `cannot write: ${writeProblem(code)}. ${capitalise(fix)} and run the same command again: the answers already stored in ${storeDir} are kept and are not asked again.`,
    err,
  );
}

/** The SQLite result code of a better-sqlite3 error (SQLITE_FULL, SQLITE_IOERR_WRITE, ...), if it is one. */
function sqliteCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

const KEEP_GOING = "the run store keeps the answers already received, so a new run asks only for the rest";

/**
 * The error of a failed read or write of the request cache. Disk trouble and damaged pages become
 * one message naming the file and the way out; other errors are returned as they are.
 */
export function requestCacheError(err: unknown, path: string): unknown {
  if (YardstickError.isInstance(err)) return err;
  const code = sqliteCode(err) ?? (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== "string") return err;
  const elsewhere = "set YARDSTICK_CACHE_DIR to another folder, or run with --no-cache";
  if (code === "SQLITE_FULL" || NO_SPACE.has(code) || code === "EFBIG") {
    return new StorageError(
      path,
      code,
      `cannot write the request cache: the disk is full (${code}). Free some space and run the same command again, or ${elsewhere} (on another disk); ${KEEP_GOING}.`,
      err,
    );
  }
  if (code === "SQLITE_CORRUPT" || code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT_")) {
    return new StorageError(
      path,
      code,
      `the request cache is damaged (${code}: ${(err as Error).message}). Delete it (rm "${path}" "${path}-wal" "${path}-shm") to start a new cache, or ${elsewhere}; ${KEEP_GOING}.`,
      err,
    );
  }
  if (code.startsWith("SQLITE_IOERR") || code === "SQLITE_READONLY" || code === "SQLITE_CANTOPEN") {
    return new StorageError(
      path,
      code,
      `cannot read or write the request cache (${code}: ${(err as Error).message}). Check the disk and the file's permissions, or ${elsewhere}; ${KEEP_GOING}.`,
      err,
    );
  }
  return err;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
