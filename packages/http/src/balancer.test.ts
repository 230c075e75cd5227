import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type AttemptOutcome, type Balancer, createBalancer, OutageError } from "./balancer.js";
import { createTransport, type Transport, TransportError } from "./http-transport.js";

/**
 * A real server on 127.0.0.1 answering every request after `latencyMs` (on `port`, else a free one);
 * every `failEvery`-th request gets a 500.
 */
async function startServer(
  latencyMs: number,
  port = 0,
  failEvery = 0,
): Promise<{ server: Server; url: string; port: number; control: { failing: boolean } }> {
  let n = 0;
  /** While `failing`, every request gets a 500 (probes too). */
  const control = { failing: false };
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const fail = control.failing || (failEvery > 0 && ++n % failEvery === 0 && req.method === "POST");
      setTimeout(() => {
        res.writeHead(fail ? 500 : 200, { "content-type": "application/json" });
        res.end(fail ? '{"error":"boom"}' : '{"ok":true}');
      }, latencyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.address() as AddressInfo).port;
  return { server, url: `http://127.0.0.1:${bound}/v1`, port: bound, control };
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

const open: { transport?: Transport; balancer?: Balancer; servers: Server[] } = { servers: [] };
afterEach(async () => {
  open.balancer?.close();
  await open.transport?.close();
  await Promise.all(open.servers.map((s) => (s.listening ? stop(s) : undefined)));
  open.servers = [];
  open.transport = undefined;
  open.balancer = undefined;
});

function setUp(urls: string[], settings: { maxOutageMs?: number; probeDelayMs?: number } = {}): { transport: Transport; balancer: Balancer } {
  const transport = createTransport(urls, 16);
  const balancer = createBalancer(transport.endpoints, {
    probeDelayMs: settings.probeDelayMs ?? 50,
    maxProbeDelayMs: 200,
    ...(settings.maxOutageMs !== undefined ? { maxOutageMs: settings.maxOutageMs } : {}),
    probe: (e) => transport.get(e, "/models", {}, 1000).then((r) => r.status < 500, () => false),
  });
  open.transport = transport;
  open.balancer = balancer;
  return { transport, balancer };
}

/** One request as a provider sends it: wait for an endpoint, one attempt, the outcome told to the balancer. */
async function send(transport: Transport, balancer: Balancer): Promise<{ url: string; ok: boolean }> {
  let lane = balancer.pick();
  while (lane === undefined) {
    await balancer.whenAvailable();
    lane = balancer.pick();
  }
  let outcome: AttemptOutcome = "down";
  try {
    const reply = await transport.post(lane.endpoint, "/chat/completions", "{}", {}, 2000);
    outcome = reply.status === 200 ? "ok" : reply.status < 500 ? "failed" : "down";
    balancer.end(lane, outcome, reply.latencyMs);
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    outcome = error.unreachable ? "unreachable" : "down";
    balancer.end(lane, outcome, 0, error.message);
  }
  return { url: lane.endpoint.url, ok: outcome === "ok" };
}

/** `total` requests, `concurrency` at a time; `onSent(n)` after each one. */
async function drive(transport: Transport, balancer: Balancer, total: number, concurrency: number, onSent?: (n: number) => void) {
  const results: { url: string; ok: boolean }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        results.push(await send(transport, balancer));
        onSent?.(results.length);
      }
    }),
  );
  return results;
}

describe("createBalancer", () => {
  it("sends most requests to the faster of two servers", async () => {
    const fast = await startServer(2);
    const slow = await startServer(40);
    open.servers.push(fast.server, slow.server);
    const { transport, balancer } = setUp([slow.url, fast.url]);
    const results = await drive(transport, balancer, 300, 8);
    const toFast = results.filter((r) => r.url === fast.url).length;
    expect(results.every((r) => r.ok)).toBe(true);
    expect(toFast / results.length).toBeGreaterThan(0.75);
    // The slow one still gets some (its share of the load, and the odd pick that measures it again).
    expect(results.length - toFast).toBeGreaterThan(0);
    const stats = balancer.stats();
    expect(stats.map((s) => s.requests)).toEqual([results.length - toFast, toFast]);
    expect(stats[0]!.meanLatencyMs).toBeGreaterThan(stats[1]!.meanLatencyMs);
  });

  it("sends fewer requests to a server that fails often", async () => {
    const flaky = await startServer(5, 0, 3);
    const sound = await startServer(5);
    open.servers.push(flaky.server, sound.server);
    const { transport, balancer } = setUp([flaky.url, sound.url]);
    const results = await drive(transport, balancer, 300, 8);
    const toFlaky = results.filter((r) => r.url === flaky.url).length;
    // Round robin would give it half; its failures count as slow answers.
    expect(toFlaky / results.length).toBeLessThan(0.4);
    expect(results.filter((r) => !r.ok).every((r) => r.url === flaky.url)).toBe(true);
  });

  it("sets a server that went away aside: the rest of the run goes to the other one", async () => {
    const a = await startServer(3);
    const b = await startServer(3);
    open.servers.push(a.server, b.server);
    const { transport, balancer } = setUp([a.url, b.url]);
    let killed = 0;
    const results = await drive(transport, balancer, 400, 8, (n) => {
      if (n === 100) {
        killed = n;
        void stop(a.server);
      }
    });
    expect(killed).toBe(100);
    const failed = results.filter((r) => !r.ok);
    // Only the attempts in flight when it went away (and those that found it refusing before it was set aside) fail.
    expect(failed.length).toBeLessThanOrEqual(16);
    expect(failed.every((r) => r.url === a.url)).toBe(true);
    expect(results.slice(200).every((r) => r.url === b.url && r.ok)).toBe(true);
    expect(balancer.lanes[0]!.setAside).toBe(true);
    expect(balancer.stats()[0]!.setAside).toBe(1);
  });

  it("a server set aside by the caller before any attempt (down at start) gets nothing until a probe finds it back", async () => {
    const a = await startServer(1);
    open.servers.push(a.server);
    const b = await startServer(1);
    const bPort = b.port;
    await stop(b.server); // down when the run starts
    const { transport, balancer } = setUp([a.url, b.url]);
    balancer.setAside(balancer.lanes[1]!, "connect ECONNREFUSED");
    const before = await drive(transport, balancer, 60, 4);
    expect(before.every((r) => r.ok && r.url === a.url)).toBe(true);
    expect(balancer.stats()[1]).toMatchObject({ requests: 0, errors: 0, setAside: 1 });
    // It comes up on its port: the probe brings it back and it gets its share.
    const back = await startServer(1, bPort);
    open.servers.push(back.server);
    while (balancer.lanes[1]!.setAside) await new Promise((r) => setTimeout(r, 20));
    const after = await drive(transport, balancer, 100, 4);
    expect(after.filter((r) => r.url === b.url).length).toBeGreaterThan(20);
  });

  it("a server back after failing for a while gets its share again at once", async () => {
    const a = await startServer(3);
    const b = await startServer(3);
    open.servers.push(a.server, b.server);
    const { transport, balancer } = setUp([a.url, b.url]);
    await drive(transport, balancer, 50, 4);
    a.control.failing = true;
    await drive(transport, balancer, 100, 4);
    expect(balancer.lanes[0]!.setAside).toBe(true);
    a.control.failing = false;
    while (balancer.lanes[0]!.setAside) await new Promise((r) => setTimeout(r, 20));
    const after = await drive(transport, balancer, 100, 4);
    expect(after.every((r) => r.ok)).toBe(true);
    // Its 500s made it look slow; back, it is not left aside until the odd exploring pick measures it.
    expect(after.filter((r) => r.url === a.url).length).toBeGreaterThan(30);
  });

  it("a retry avoids the endpoint it failed on when another is up", async () => {
    const a = await startServer(0);
    const b = await startServer(0);
    open.servers.push(a.server, b.server);
    const { balancer } = setUp([a.url, b.url]);
    for (let i = 0; i < 10; i++) {
      const first = balancer.pick()!;
      const retry = balancer.pick(first)!;
      expect(retry).not.toBe(first);
      balancer.end(first, "down", 0, "reset");
      balancer.end(retry, "ok", 1);
    }
  });

  it("waits for a single server that goes away and comes back, spending no attempt while it is down", async () => {
    const first = await startServer(1);
    open.servers.push(first.server);
    const { transport, balancer } = setUp([first.url]);
    expect((await send(transport, balancer)).ok).toBe(true);
    await stop(first.server);
    // Its refusal sets it aside at once; the next requests wait instead of failing.
    expect((await send(transport, balancer)).ok).toBe(false);
    expect(balancer.lanes[0]!.setAside).toBe(true);
    expect(balancer.pick()).toBeUndefined();
    const started = performance.now();
    const waiting = drive(transport, balancer, 20, 4);
    await new Promise((r) => setTimeout(r, 600));
    const again = await startServer(1, first.port);
    open.servers.push(again.server);
    const results = await waiting;
    expect(results.every((r) => r.ok)).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(550);
    // 2 before, 20 after: the waits sent nothing.
    expect(balancer.stats()[0]!.requests).toBe(22);
    expect(balancer.lanes[0]!.setAside).toBe(false);
  });

  it("gives up on a server that never comes back after maxOutageMs, then fails at once", async () => {
    const only = await startServer(1);
    open.servers.push(only.server);
    const { transport, balancer } = setUp([only.url], { maxOutageMs: 400 });
    expect((await send(transport, balancer)).ok).toBe(true);
    await stop(only.server);
    await send(transport, balancer);
    const started = performance.now();
    const error = await balancer.whenAvailable().catch((e: unknown) => e);
    const waited = performance.now() - started;
    expect(error).toBeInstanceOf(OutageError);
    expect((error as Error).message).toMatch(/the server did not answer for 0\.\d s, giving up \(http:\/\/127\.0\.0\.1:\d+\/v1: connection failed: ECONNREFUSED/);
    expect(waited).toBeGreaterThan(300);
    expect(waited).toBeLessThan(2000);
    const atOnce = performance.now();
    await expect(balancer.whenAvailable()).rejects.toBeInstanceOf(OutageError);
    expect(performance.now() - atOnce).toBeLessThan(50);
  });

  it("sets nothing aside before any server has answered (a wrong URL fails through the caller's retries)", async () => {
    const gone = await startServer(0);
    await stop(gone.server);
    const { transport, balancer } = setUp([gone.url]);
    for (let i = 0; i < 3; i++) expect((await send(transport, balancer)).ok).toBe(false);
    expect(balancer.lanes[0]!.setAside).toBe(false);
    expect(balancer.stats()[0]).toMatchObject({ requests: 3, errors: 3, setAside: 0 });
  });

  it("a waiting caller can be stopped by its signal", async () => {
    const only = await startServer(1);
    open.servers.push(only.server);
    const { transport, balancer } = setUp([only.url]);
    await send(transport, balancer);
    await stop(only.server);
    await send(transport, balancer);
    const controller = new AbortController();
    const waiting = balancer.whenAvailable(controller.signal);
    controller.abort(new Error("stopped"));
    await expect(waiting).rejects.toThrow("stopped");
  });
});
