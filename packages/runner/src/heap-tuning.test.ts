import type { ProgressReporter, RunPhase } from "@yardstick/engine";
import { describe, expect, it } from "vitest";
import { tuningHeapByPhase } from "./heap-tuning.js";

describe("tuningHeapByPhase", () => {
  it("passes every phase and every other call on to the reporter it wraps", () => {
    const calls: string[] = [];
    const reporter: ProgressReporter = {
      startTask: (key, total) => calls.push(`start ${key} ${total}`),
      advance: (n) => calls.push(`advance ${n}`),
      endTask: () => calls.push("end"),
      phase: (name: RunPhase) => calls.push(`phase ${name}`),
    };
    const wrapped = tuningHeapByPhase(reporter);
    wrapped.phase?.("answer");
    wrapped.startTask("t", 3);
    wrapped.advance(3);
    wrapped.endTask();
    wrapped.phase?.("score");
    expect(calls).toEqual(["phase answer", "start t 3", "advance 3", "end", "phase score"]);
  });

  it("keeps a reporter without phases working", () => {
    const calls: string[] = [];
    const wrapped = tuningHeapByPhase({ startTask: () => calls.push("start"), advance: () => {}, endTask: () => {} });
    expect(() => wrapped.phase?.("score")).not.toThrow();
    wrapped.startTask("t", 1);
    expect(calls).toEqual(["start"]);
  });
});
