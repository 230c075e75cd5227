import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAttemptTimeout } from "./attempt-timeout.js";
import { createTransport, TransportError } from "./http-transport.js";

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith("/api/hang")) return; // never answers
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (req.url?.startsWith("/api/busy")) {
        res.writeHead(503, { "retry-after": "2", "content-type": "text/plain" });
        res.end("busy");
        return;
      }
      res.writeHead(200, { "x-revision": "abc", "content-type": "application/json" });
      res.end(JSON.stringify({ method: req.method, url: req.url, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("createTransport", () => {
  it("GETs below the endpoint's path and returns the headers of a 2xx", async () => {
    const t = createTransport([base], 2);
    try {
      const reply = await t.get(t.next(), "/rows?offset=0", { accept: "application/json" }, 5_000);
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.text)).toEqual({ method: "GET", url: "/api/rows?offset=0", body: "" });
      expect(reply.headers["x-revision"]).toBe("abc");
    } finally {
      await t.close();
    }
  });

  it("POSTs the body; headers are parsed for error answers only", async () => {
    const t = createTransport([base], 2);
    try {
      const ok = await t.post(t.next(), "/chat", '{"a":1}', { "content-type": "application/json" }, 5_000);
      expect(JSON.parse(ok.text)).toEqual({ method: "POST", url: "/api/chat", body: '{"a":1}' });
      expect(ok.headers).toEqual({});
      const busy = await t.post(t.next(), "/busy", "", {}, 5_000);
      expect(busy.status).toBe(503);
      expect(busy.headers["retry-after"]).toBe("2");
      expect(busy.text).toBe("busy");
    } finally {
      await t.close();
    }
  });

  it("says which kind of failure it was: timeout, aborted, network", async () => {
    const t = createTransport([base], 2);
    try {
      const timeout = await t.get(t.next(), "/hang", {}, 200).catch((e: unknown) => e);
      expect(timeout).toBeInstanceOf(TransportError);
      expect((timeout as TransportError).kind).toBe("timeout");
      const aborted = await t.get(t.next(), "/hang", {}, 10_000, AbortSignal.timeout(50)).catch((e: unknown) => e);
      expect((aborted as TransportError).kind).toBe("aborted");
    } finally {
      await t.close();
    }
    // A port nobody listens on: the server's own port once it is closed is not reliable, so use port 1.
    const down = createTransport(["http://127.0.0.1:1/"], 1);
    try {
      const network = await down.get(down.next(), "/x", {}, 5_000).catch((e: unknown) => e);
      expect((network as TransportError).kind).toBe("network");
      expect((network as TransportError).message).toMatch(/^connection failed: ECONNREFUSED/);
    } finally {
      await down.close();
    }
  });

  it("cuts an attempt in flight once the adaptive limit is known and it has run longer", async () => {
    const limit = createAttemptTimeout({ capMs: 60_000, floorMs: 100, minSamples: 3 });
    const t = createTransport([base], 4, { attemptTimeout: limit, sweepEveryMs: 20 });
    try {
      // Started while the limit is still the 60 s cap.
      const started = performance.now();
      const hung = t.post(t.next(), "/hang", "", {}, limit.timeoutMs()).catch((e: unknown) => e);
      const retried = t.post(t.next(), "/hang", "", {}, limit.timeoutMs(1), undefined, 1).catch((e: unknown) => e);
      for (let i = 0; i < 3; i++) limit.record(5);
      expect(limit.timeoutMs()).toBe(100);
      const cut = await hung;
      expect(cut).toBeInstanceOf(TransportError);
      expect((cut as TransportError).kind).toBe("timeout");
      expect((cut as TransportError).message).toMatch(/^timed out after 100 ms/);
      // An attempt after one timeout gets twice the limit.
      expect(((await retried) as TransportError).message).toMatch(/^timed out after 200 ms/);
      expect(performance.now() - started).toBeLessThan(2000);
      // Answers in time are not cut.
      expect((await t.post(t.next(), "/chat", "{}", {}, 60_000)).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
