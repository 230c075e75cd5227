import { describe, expect, it } from "vitest";
import { createRecentFailures } from "./recent-failures.js";

describe("createRecentFailures", () => {
  it("is the failed share of the last window attempts (1 before any)", () => {
    const f = createRecentFailures(10);
    expect(f.share).toBe(1);
    for (let i = 0; i < 10; i++) f.note(i === 0);
    expect(f.share).toBe(0.1);
    // Ten more successes push the failure out of the window.
    for (let i = 0; i < 10; i++) f.note(false);
    expect(f.share).toBe(0);
    for (let i = 0; i < 5; i++) f.note(true);
    expect(f.share).toBe(0.5);
  });

  it("scales the jittered backoff by the share: full for a failing server, a tenth when 1 in 10 fail", () => {
    const f = createRecentFailures(10);
    const top = () => 1; // the jitter's ceiling
    expect(f.backoff(3, 500, 30_000, top)).toBe(2000);
    for (let i = 0; i < 10; i++) f.note(i < 1);
    expect(f.backoff(1, 500, 30_000, top)).toBe(50);
    expect(f.backoff(3, 500, 30_000, top)).toBe(200);
    for (let i = 0; i < 10; i++) f.note(true);
    expect(f.backoff(8, 500, 30_000, top)).toBe(30_000);
  });
});
