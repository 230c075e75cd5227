// The floor every issue-13 benchmark is measured against: a bare undici loop that sends the same
// chat requests as the benchmark task (make-task.mjs) over `concurrency` connections, and nothing else.
import { Pool } from "undici";
import { messagesFor } from "../throughput/make-task.mjs";

/** Sends `count` requests to the dev server at `url`, `concurrency` at a time; resolves to the wall seconds. */
export async function bareLoop(url, count, concurrency) {
  const pool = new Pool(new URL(url).origin, { connections: concurrency, pipelining: 1 });
  let next = 0;
  const t0 = performance.now();
  const lane = async () => {
    for (let i = next++; i < count; i = next++) {
      const res = await pool.request({
        path: "/v1/chat/completions",
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "bench", messages: messagesFor(i), max_tokens: 16 }),
      });
      if (!(await res.body.json()).choices) throw new Error("bad response");
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  return seconds;
}
