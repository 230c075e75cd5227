/**
 * Network isolation for the Python child of function_execution / seahelm-livecodebench: the child is
 * started through `unshare --net` (as root) or `unshare --net --map-root-user` (unprivileged user
 * namespaces) in a new network namespace where no interface is up, not even loopback, so every
 * connect() fails with "Network is unreachable". Which form works is probed once per unshare command
 * and cached for the process. When neither works, programs run without isolation after one warning,
 * or are refused when isolation is required (`requireIsolation`, or YARDSTICK_SANDBOX=strict).
 */
import { spawn } from "node:child_process";

export type NetworkIsolation = { available: true; prefix: readonly string[] } | { available: false; reason: string };

export const SANDBOX_ENV = "YARDSTICK_SANDBOX";

/** PATH of the child (and of the probe, so both find the same unshare). */
export const SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin";

const probes = new Map<string, Promise<NetworkIsolation>>();
const warned = new Set<string>();

/** Runs `argv` and resolves to undefined when it exits 0, else to what went wrong. */
function tryRun(argv: readonly string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const [exe, ...args] = argv;
    const child = spawn(exe!, args, { stdio: ["ignore", "ignore", "pipe"], env: { PATH: SANDBOX_PATH, LANG: "C.UTF-8" } });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < 1024) stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => resolve(`cannot start ${exe}: ${error.message}`));
    child.on("close", (code, signal) => resolve(code === 0 ? undefined : stderr.trim() || `${argv.join(" ")} exited with ${signal ?? code}`));
  });
}

async function probe(unshare: string): Promise<NetworkIsolation> {
  // Root needs no user namespace; mapping root costs a uid_map write per program, so try plain --net first.
  const candidates = [
    [unshare, "--net"],
    [unshare, "--net", "--map-root-user"],
  ];
  const failures: string[] = [];
  for (const prefix of candidates) {
    const failure = await tryRun([...prefix, "--", "true"]);
    if (failure === undefined) return { available: true, prefix: [...prefix, "--"] };
    failures.push(`${prefix.slice(1).join(" ")}: ${failure}`);
  }
  return { available: false, reason: failures.join("; ") };
}

/** Which unshare form isolates the network here (probed once per `unshare` path, then cached). */
export function detectNetworkIsolation(unshare = "unshare"): Promise<NetworkIsolation> {
  let found = probes.get(unshare);
  if (found === undefined) {
    found = probe(unshare);
    probes.set(unshare, found);
  }
  return found;
}

/** True when YARDSTICK_SANDBOX=strict asks every run to refuse code it cannot isolate. */
export function sandboxRequiredByEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[SANDBOX_ENV]?.trim().toLowerCase() === "strict";
}

export function isolationMissingMessage(reason: string): string {
  return `code runs without network isolation: ${reason}; install util-linux or run with user namespaces enabled (set ${SANDBOX_ENV}=strict or requireIsolation: true to refuse instead)`;
}

/** Says once per process (and unshare path) that programs run with the network reachable. */
export function warnNoIsolation(unshare: string, reason: string, log: ((message: string) => void) | undefined): void {
  if (warned.has(unshare)) return;
  warned.add(unshare);
  const message = `warning: ${isolationMissingMessage(reason)}`;
  if (log) log(message);
  else process.stderr.write(`yardstick: ${message}\n`);
}
