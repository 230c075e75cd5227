import { describe, expect, it } from "vitest";
import { ApiCallError, ConfigError, MetricError, NoSuchPluginError, YardstickError } from "./errors.js";
import type { MetricV1 } from "./contracts.js";
import { createRegistry } from "./registry.js";

const metric = (id: string): MetricV1 => ({
  specVersion: "v1",
  id,
  compute: () => ({ scores: { x: 1 }, perSample: [] }),
});

describe("createRegistry", () => {
  it("returns registered instances and calls factories with options", () => {
    const seen: unknown[] = [];
    const reg = createRegistry({
      metrics: {
        plain: metric("plain"),
        made: (options) => {
          seen.push(options);
          return metric("made");
        },
      },
    });
    expect(reg.get("metrics", "plain").id).toBe("plain");
    expect(reg.get("metrics", "made", { k: 1 }).id).toBe("made");
    expect(seen).toEqual([{ k: 1 }]);
    expect(reg.ids("metrics")).toEqual(["made", "plain"]);
  });

  it("throws NoSuchPluginError listing the ids that exist", () => {
    const reg = createRegistry({ metrics: { b: metric("b"), a: metric("a") } });
    let caught: unknown;
    try {
      reg.get("metrics", "nope");
    } catch (e) {
      caught = e;
    }
    expect(NoSuchPluginError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toBe('unknown metric "nope"; available: a, b');
  });

  it("extend layers new entries without touching the original", () => {
    const base = createRegistry({ metrics: { a: metric("a") } });
    const more = base.extend({ metrics: { b: metric("b") } });
    expect(more.ids("metrics")).toEqual(["a", "b"]);
    expect(base.ids("metrics")).toEqual(["a"]);
  });
});

describe("errors", () => {
  it("recognises errors across copies by marker, and by code for subclasses", () => {
    const foreign = { [Symbol.for("yardstick.error")]: true, code: "config" };
    expect(YardstickError.isInstance(foreign)).toBe(true);
    expect(ConfigError.isInstance(foreign)).toBe(true);
    expect(MetricError.isInstance(foreign)).toBe(false);
    expect(YardstickError.isInstance(new Error("x"))).toBe(false);
  });

  it("formats config errors with file, position and key path", () => {
    const e = new ConfigError("must be an integer", {
      file: "tasks/config.yaml",
      line: 12,
      column: 7,
      keyPath: ["sentiment", "languages", "id", "max_tokens"],
    });
    expect(e.message).toBe("tasks/config.yaml:12:7 sentiment.languages.id.max_tokens: must be an integer");
    expect(e.code).toBe("config");
  });

  it("keeps the cause and retry information of API errors", () => {
    const cause = new Error("ECONNRESET");
    const e = new ApiCallError("connection reset", { retryable: true, cause, status: 503 });
    expect(e.cause).toBe(cause);
    expect(e.retryable).toBe(true);
    expect(ApiCallError.isInstance(e)).toBe(true);
  });
});
