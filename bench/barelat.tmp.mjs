import { Pool } from "undici";
import { startDevServerProcess } from "./lib/processes.mjs";
const n = Number(process.argv[2] ?? 5000), c = 64;
const server = await startDevServerProcess(["--policy", "fixed:Answer: Positive", "--latency-ms", "100"]);
const pool = new Pool(server.url, { connections: c });
const lat = [];
async function loop(count) {
  let next = 0; const t0 = performance.now();
  await Promise.all(Array.from({ length: c }, async () => { for (let i = next++; i < count; i = next++) { const s = performance.now(); const r = await pool.request({ path: "/v1/chat/completions", method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "bench", messages: [{ role: "user", content: "s" + i }], max_tokens: 16 }) }); await r.body.json(); lat.push(performance.now() - s); } }));
  return (performance.now() - t0) / 1000;
}
await loop(1000); lat.length = 0;
const secs = await loop(n);
lat.sort((a, b) => a - b);
const mean = lat.reduce((a, b) => a + b, 0) / lat.length;
console.log({ secs, ideal: n * 0.1 / c, ratio: secs / (n * 0.1 / c), mean: mean.toFixed(2), p50: lat[lat.length >> 1].toFixed(2), p99: lat[Math.floor(lat.length * 0.99)].toFixed(2), max: lat.at(-1).toFixed(2) });
await pool.close(); await server.stop();
