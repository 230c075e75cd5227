import { writeFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";

let failed = false;

/** The thread behind threadFileSink: writes each batch of files in order and acknowledges it; stops writing after a failure. */
parentPort?.on("message", (msg: { paths: string[]; datas: (string | Uint8Array)[] }) => {
  if (failed) {
    parentPort?.postMessage({ ok: true });
    return;
  }
  try {
    for (let k = 0; k < msg.paths.length; k++) writeFileSync(msg.paths[k]!, msg.datas[k]!);
    parentPort?.postMessage({ ok: true });
  } catch (err) {
    failed = true;
    const e = err as NodeJS.ErrnoException;
    parentPort?.postMessage({ ok: false, message: e instanceof Error ? e.message : String(err), code: e.code });
  }
});
