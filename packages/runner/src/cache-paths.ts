import { homedir } from "node:os";
import { join } from "node:path";

/** yardstick's cache folder: $YARDSTICK_CACHE_DIR, else ~/.cache/yardstick. */
export function cacheRoot(env: NodeJS.ProcessEnv): string {
  return env.YARDSTICK_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "yardstick");
}

/** Where the shared request cache lives. */
export function defaultCachePath(env: NodeJS.ProcessEnv): string {
  return join(cacheRoot(env), "requests.sqlite");
}
