import { describe, expect, it } from "vitest";
import { createAdaptiveLimiter, type LimiterTicket } from "./adaptive-limiter.js";

describe("createAdaptiveLimiter", () => {
  it("admits up to the limit and queues the rest first in, first out", async () => {
    const l = createAdaptiveLimiter({ max: 2 });
    const a = await l.acquire();
    const b = await l.acquire();
    const order: string[] = [];
    const track = (name: string) => (t: LimiterTicket) => {
      order.push(name);
      return t;
    };
    const c = l.acquire().then(track("c"));
    const d = l.acquire().then(track("d"));
    expect(l.inFlight).toBe(2);
    expect(l.waiting).toBe(2);
    l.release(a, "other");
    l.release(b, "other");
    await Promise.all([c, d]);
    expect(order).toEqual(["c", "d"]);
    expect(l.inFlight).toBe(2);
  });

  it("halves on a 429 once per episode and never below min", async () => {
    const l = createAdaptiveLimiter({ max: 16, min: 3, now: () => 0 });
    const early = await Promise.all(Array.from({ length: 6 }, () => l.acquire()));
    for (const t of early) l.release(t, "rate-limited", { retryAfterMs: 0 });
    expect(l.limit).toBe(8);
    expect(l.decreases).toBe(1);
    // A request admitted after the decrease that is still rate limited starts a new episode.
    l.release(await l.acquire(), "rate-limited", { retryAfterMs: 0 });
    expect(l.limit).toBe(4);
    l.release(await l.acquire(), "rate-limited", { retryAfterMs: 0 });
    expect(l.limit).toBe(3);
    l.release(await l.acquire(), "rate-limited", { retryAfterMs: 0 });
    expect(l.limit).toBe(3);
  });

  it("does not compound 429s of one rate-limit window, even from requests admitted after the decrease", async () => {
    let t = 1000;
    const l = createAdaptiveLimiter({ max: 32, now: () => t, increaseEvery: 1000 });
    l.release(await l.acquire(), "rate-limited", { retryAfterMs: 1000 });
    expect(l.limit).toBe(16);
    // A rate limit in force: every answer of the next second is a 429, each from a request admitted after the decrease.
    for (let i = 0; i < 50; i++) {
      t += 19;
      l.release(await l.acquire(), "rate-limited", { retryAfterMs: 1000 });
    }
    expect(t).toBeLessThan(2000);
    expect(l.limit).toBe(16);
    expect(l.decreases).toBe(1);
    // Once the window the server named has passed, a new 429 is a new episode.
    t = 2001;
    l.release(await l.acquire(), "rate-limited");
    expect(l.limit).toBe(8);
    // Without Retry-After the window is windowMs (default 1 s).
    t = 2900;
    l.release(await l.acquire(), "rate-limited");
    expect(l.limit).toBe(8);
    t = 3002;
    l.release(await l.acquire(), "rate-limited");
    expect(l.limit).toBe(4);
    expect(l.decreases).toBe(3);
  });

  it("shrinks only when 429s are at least rateLimitedShare of the recent answers", async () => {
    let t = 0;
    const l = createAdaptiveLimiter({ max: 16, now: () => t, rateLimitedShare: 0.25 });
    // 32 answers, the last 7 of them 429s (22%): no decrease, however many windows pass.
    for (let i = 0; i < 32; i++) {
      t += 100;
      l.release(await l.acquire(), i >= 25 ? "rate-limited" : "success", { retryAfterMs: 0 });
    }
    expect(l.decreases).toBe(0);
    // One more 429 makes 8 of the last 32 (25%): the limit halves.
    t += 100;
    l.release(await l.acquire(), "rate-limited", { retryAfterMs: 0 });
    expect(l.limit).toBe(8);
    expect(l.decreases).toBe(1);
  });

  it("grows in proportion to its size: half the limit (at least 1) per increaseEvery successes, up to max", async () => {
    const l = createAdaptiveLimiter({ max: 64, initial: 1, increaseEvery: 3 });
    expect(l.limit).toBe(1);
    const grow = async (n: number) => {
      for (let i = 0; i < n; i++) l.release(await l.acquire(), "success");
    };
    await grow(3);
    expect(l.limit).toBe(2);
    await grow(3);
    expect(l.limit).toBe(3);
    await grow(3);
    expect(l.limit).toBe(4);
    await grow(3);
    expect(l.limit).toBe(6);
    await grow(6);
    expect(l.limit).toBe(13);
    await grow(300);
    expect(l.limit).toBe(64);
    // Other failures (5xx, resets, timeouts) change nothing.
    l.release(await l.acquire(), "other");
    expect(l.limit).toBe(64);
  });

  it("keeps most of its concurrency under 10% random 429s (the combined-fault case)", async () => {
    // 20 ms per request at the limit's concurrency; every tenth answer is a 429 with Retry-After 1 s.
    let t = 0;
    const l = createAdaptiveLimiter({ max: 32, now: () => t });
    let served = 0;
    let limitTime = 0;
    let last = 0;
    for (let round = 0; round < 500; round++) {
      const tickets = [];
      for (let i = 0; i < l.limit; i++) tickets.push(await l.acquire());
      t += 20;
      limitTime += l.limit * (t - last);
      last = t;
      for (const ticket of tickets) l.release(ticket, served++ % 10 === 0 ? "rate-limited" : "success", { retryAfterMs: 1000 });
    }
    // The old rule (halve per 429 admitted after a decrease, +1 per 10 successes) averaged about 1 here.
    expect(limitTime / t).toBeGreaterThan(30);
  });

  it("lets a waiter give up when its signal aborts", async () => {
    const l = createAdaptiveLimiter({ max: 1 });
    const held = await l.acquire();
    const controller = new AbortController();
    const waiting = l.acquire(controller.signal);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    l.release(held, "success");
    // The aborted waiter did not take the freed slot.
    const next = await l.acquire();
    expect(l.inFlight).toBe(1);
    l.release(next, "success");
    await expect(l.acquire(AbortSignal.abort(new Error("already")))).rejects.toThrow("already");
  });
});
