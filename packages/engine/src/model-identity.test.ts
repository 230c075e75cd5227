import { ConfigError, type ModelProviderV1 } from "@yardstick/core";
import { createOpenAICompatible, createRandomBaseline } from "@yardstick/models";
import { type DevServerOptions, startDevServer } from "@yardstick/testing";
import { afterEach, describe, expect, it } from "vitest";
import { resolveModelIdentity } from "./model-identity.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** An openai-compatible provider for model "m" on a fresh dev server. */
async function servedBy(options: DevServerOptions): Promise<ModelProviderV1> {
  const server = await startDevServer({ models: ["m"], ...options });
  const provider = createOpenAICompatible({ modelId: "m", baseURL: `${server.url}/v1` });
  cleanups.push(async () => {
    await provider.close();
    await server.close();
  });
  return provider;
}

describe("resolveModelIdentity", () => {
  it("differs for two servers serving different checkpoints under one model name", async () => {
    const a = await resolveModelIdentity(await servedBy({ root: "/ckpt/step-1000" }));
    const b = await resolveModelIdentity(await servedBy({ root: "/ckpt/step-2000" }));
    expect(a.identity).not.toBe(b.identity);
    expect(a.identity.startsWith("openai-compatible:m#")).toBe(true);
    expect(a.parts).toEqual({ provider: "openai-compatible", model: "m", served: { root: "/ckpt/step-1000", maxModelLen: 32768, ownedBy: "yardstick" } });
  });

  it("differs for two dev servers with different answer policies (their default roots differ)", async () => {
    const echo = await resolveModelIdentity(await servedBy({ policy: "echo" }));
    const fixed = await resolveModelIdentity(await servedBy({ policy: { fixed: "A" } }));
    expect(echo.identity).not.toBe(fixed.identity);
  });

  it("is the same for two servers with the same root", async () => {
    const a = await resolveModelIdentity(await servedBy({ root: "/ckpt/same" }));
    const b = await resolveModelIdentity(await servedBy({ root: "/ckpt/same" }));
    expect(a.identity).toBe(b.identity);
  });

  it("takes a revision into account", async () => {
    const provider = await servedBy({ root: "/ckpt/same" });
    const plain = await resolveModelIdentity(provider);
    const v1 = await resolveModelIdentity(provider, { revision: "v1" });
    const v2 = await resolveModelIdentity(provider, { revision: "v2" });
    expect(new Set([plain.identity, v1.identity, v2.identity]).size).toBe(3);
    expect(v1.parts.revision).toBe("v1");
    expect((await resolveModelIdentity(provider, { revision: "v1" })).identity).toBe(v1.identity);
    await expect(resolveModelIdentity(provider, { revision: " " })).rejects.toSatisfy((e: unknown) => ConfigError.isInstance(e));
  });

  it("warns that a server does not list the model unless a revision was given (what the warning asks for)", async () => {
    const unlisted = await servedBy({ models: ["another-model"] });
    const lines: string[] = [];
    await resolveModelIdentity(unlisted, { log: (l) => lines.push(l) });
    expect(lines.join("\n")).toContain("pass --model-revision");
    lines.length = 0;
    await resolveModelIdentity(unlisted, { revision: "step-2000", log: (l) => lines.push(l) });
    expect(lines).toEqual([]);
  });

  it("is identity() itself when the provider reports nothing and no revision is given", async () => {
    const baseline = createRandomBaseline({ seed: 3 });
    const resolved = await resolveModelIdentity(baseline);
    expect(resolved.identity).toBe(baseline.identity());
    expect(resolved.parts).toEqual({ provider: baseline.id, model: baseline.modelId });
    const unlisted = await servedBy({ models: ["another-model"] });
    expect((await resolveModelIdentity(unlisted)).identity).toBe("openai-compatible:m");
    const revised = await resolveModelIdentity(baseline, { revision: "r1" });
    expect(revised.identity).toBe(`${baseline.identity()}#{"revision":"r1"}`);
  });
});
