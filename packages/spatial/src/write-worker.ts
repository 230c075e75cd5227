import { parentPort } from "node:worker_threads";
import { processRange, releaseLines, type WriteOptions } from "./write-dataset.js";

/** Worker thread for writeDataset: generates and writes one range of canvases per message. */
parentPort?.on("message", async (msg: { outDir: string; options: WriteOptions; start: number; end: number }) => {
  try {
    const result = await processRange(msg.outDir, msg.options, msg.start, msg.end);
    parentPort?.postMessage({ ok: true, result });
    // postMessage has copied the lines: their buffers can serve the next range.
    for (const data of Object.values(result.lines)) releaseLines(data);
  } catch (err) {
    parentPort?.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
