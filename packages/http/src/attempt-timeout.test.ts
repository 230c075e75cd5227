import { describe, expect, it } from "vitest";
import { createAttemptTimeout } from "./attempt-timeout.js";

describe("createAttemptTimeout", () => {
  it("uses the configured timeout until enough successes are known", () => {
    const t = createAttemptTimeout({ capMs: 120_000, minSamples: 5, now: () => 0 });
    for (let i = 0; i < 4; i++) t.record(100);
    expect(t.p99).toBeUndefined();
    expect(t.timeoutMs()).toBe(120_000);
    t.record(100);
    expect(t.p99).toBe(100);
    expect(t.timeoutMs()).toBe(1000); // 4 × 100 ms is below the 1 s floor
  });

  it("is factor × p99 of recent latencies, at least the floor and at most the cap", () => {
    let now = 0;
    const t = createAttemptTimeout({ capMs: 10_000, floorMs: 200, factor: 4, minSamples: 10, window: 100, now: () => now });
    // 99 fast answers and one slow: the p99 of 100 is the 99th smallest.
    for (let i = 0; i < 99; i++) t.record(50);
    t.record(900);
    expect(t.p99).toBe(50);
    expect(t.timeoutMs()).toBe(200);
    // A slower server: the window fills with 300 ms answers; the cached p99 refreshes after a second.
    for (let i = 0; i < 100; i++) t.record(300);
    expect(t.timeoutMs()).toBe(200);
    now += 1000;
    expect(t.timeoutMs()).toBe(1200);
    for (let i = 0; i < 100; i++) t.record(5000);
    now += 1000;
    expect(t.timeoutMs()).toBe(10_000);
  });

  it("doubles per earlier timeout of the same request, up to the cap", () => {
    const t = createAttemptTimeout({ capMs: 5000, floorMs: 500, minSamples: 1, now: () => 0 });
    t.record(10);
    expect([0, 1, 2, 3, 4].map((n) => t.timeoutMs(n))).toEqual([500, 1000, 2000, 4000, 5000]);
  });

  it("forgets latencies older than maxAgeMs", () => {
    let now = 0;
    const t = createAttemptTimeout({ capMs: 60_000, minSamples: 3, maxAgeMs: 10_000, now: () => now });
    for (let i = 0; i < 3; i++) t.record(2000);
    expect(t.timeoutMs()).toBe(8000);
    now = 11_000;
    expect(t.timeoutMs()).toBe(60_000);
    for (let i = 0; i < 3; i++) t.record(400);
    expect(t.timeoutMs()).toBe(1600);
  });
});
