import { randomBytes } from "node:crypto";
import {
  ApiCallError,
  type LabelSet,
  type ModelCallContext,
  type ModelProviderV1,
  type ModelRequest,
  YardstickError,
} from "@yardstick/core";
import { attempt } from "./run-checks.js";
import { describeError } from "./run-compute.js";
import type { ConformanceCheck } from "./types.js";
import { responseProblems } from "./validate-response.js";

/** What the suite hands the provider factory: a fresh API key, which must never show up in identity or errors. */
export interface ProviderSettings {
  apiKey: string;
}

export type ProviderFactory = (settings: ProviderSettings) => ModelProviderV1 | Promise<ModelProviderV1>;

export interface ProviderConformanceOptions {
  /** Whether the provider answers chat requests. Default true. */
  chat?: boolean;
  /** Whether the provider answers completion requests. Default true. */
  completion?: boolean;
  /** Whether `params.n` gives `n` choices. Default true. */
  multipleChoices?: boolean;
  /**
   * Whether the provider supports tool calls (`params.tools`, `params.toolChoice`) in chat requests:
   * then a forced tool call must come back in `toolCalls` with its arguments parsed. Default false.
   */
  tools?: boolean;
  /**
   * A provider whose server fails every request (a dev server with `faults: { rate500: 1 }`, ...), to
   * check that failures are ApiCallError/YardstickError without the API key in them. Strongly advised
   * for providers that call a server.
   */
  makeFailingProvider?: ProviderFactory;
  /** The label set passed as `ctx.labelSet` to `needsLabelSet` providers. */
  labelSet?: LabelSet;
}

const DEFAULT_LABELS: LabelSet = { labels: ["positive", "negative", "neutral"], counts: { positive: 2, negative: 5, neutral: 1 } };
const OTHER_LABELS: LabelSet = { labels: ["ya", "tidak"], counts: { ya: 1, tidak: 3 } };

const chatRequest = (n?: number): ModelRequest => ({
  kind: "chat",
  messages: [
    { role: "system", content: "Answer with one word." },
    { role: "user", content: "Is the sky blue on a clear day? Answer: yes" },
  ],
  params: n === undefined ? { maxTokens: 16 } : { maxTokens: 16, n },
});
const completionRequest = (n?: number): ModelRequest => ({
  kind: "completion",
  prompt: "Question: 2 + 2 = ?\nAnswer:",
  params: n === undefined ? { maxTokens: 16 } : { maxTokens: 16, n },
});

const VERDICTS = ["yes", "no"];
const FORCED_TOOL = {
  name: "record_answer",
  description: "Record the answer to the question",
  parameters: { type: "object", properties: { verdict: { type: "string", enum: VERDICTS } }, required: ["verdict"], additionalProperties: false },
};
const toolRequest = (): ModelRequest => ({
  kind: "chat",
  messages: [{ role: "user", content: "Is the sky blue on a clear day? Record your answer." }],
  params: { maxTokens: 64, tools: [FORCED_TOOL], toolChoice: { name: FORCED_TOOL.name } },
});

/** A key that looks like a real one and cannot occur by chance. */
const makeSecret = (): string => `sk-conformance-${randomBytes(12).toString("hex")}`;

/** Messages and fields of an error and its causes, where a leaked key would show. */
function errorText(error: unknown, depth = 0): string {
  if (depth > 5 || error === undefined || error === null) return "";
  if (!(error instanceof Error)) return String(error);
  const fields = Object.entries(error)
    .filter(([, v]) => typeof v === "string")
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  return `${error.name}: ${error.message} ${fields} ${String(error.stack)} ${errorText(error.cause, depth + 1)}`;
}

async function withProvider<T>(make: ProviderFactory, secret: string, use: (p: ModelProviderV1) => Promise<T>): Promise<T> {
  const provider = await make({ apiKey: secret });
  try {
    return await use(provider);
  } finally {
    await provider.close?.();
  }
}

/** The checks `testProvider` registers and `checkProviderConformance` runs. */
export function planProviderChecks(makeProvider: ProviderFactory, opts: ProviderConformanceOptions = {}): ConformanceCheck[] {
  const labelSet = opts.labelSet ?? DEFAULT_LABELS;
  const checks: ConformanceCheck[] = [];
  const check = (name: string, run: (secret: string) => Promise<string[]>): void => {
    checks.push({ name, run: () => run(makeSecret()) });
  };
  /** The context a call gets: the label set for providers that answer from it. */
  const ctxFor = (p: ModelProviderV1, set: LabelSet = labelSet): ModelCallContext => (p.needsLabelSet ? { labelSet: set } : {});

  check("satisfies the ModelProviderV1 contract, with a stable identity free of the API key", async (secret) => {
    const other = makeSecret();
    return withProvider(makeProvider, secret, async (p) => {
      const problems = providerContractProblems(p);
      if (problems.length > 0) return problems;
      const identity = p.identity();
      if (p.identity() !== identity) problems.push("identity() is not stable between calls");
      if (identity.includes(secret)) problems.push("identity() contains the API key");
      const twin = await withProvider(makeProvider, other, async (q) => ({ id: q.id, modelId: q.modelId, identity: q.identity() }));
      if (twin.identity !== identity) problems.push(`identity() depends on the API key: ${JSON.stringify(identity)} vs ${JSON.stringify(twin.identity)}`);
      if (twin.id !== p.id || twin.modelId !== p.modelId) problems.push("id or modelId differ between two providers made with the same settings");
      for (const [name, value] of [["id", p.id], ["modelId", p.modelId]] as const) if (value.includes(secret)) problems.push(`${name} contains the API key`);
      return problems;
    });
  });

  const kinds: [string, (n?: number) => ModelRequest][] = [];
  if (opts.chat ?? true) kinds.push(["chat", chatRequest]);
  if (opts.completion ?? true) kinds.push(["completion", completionRequest]);
  for (const [kind, request] of kinds) {
    check(`generate returns a well-formed ModelResponse (${kind})`, (secret) =>
      withProvider(makeProvider, secret, async (p) => {
        const out = await attempt(() => p.generate(request(), ctxFor(p)));
        if (!out.ok) return [`generate threw ${describeError(out.error)}`];
        return responseProblems(out.value, { n: 1 });
      }),
    );
    if (opts.multipleChoices ?? true) {
      check(`generate returns n choices when params.n is given (${kind})`, (secret) =>
        withProvider(makeProvider, secret, async (p) => {
          const out = await attempt(() => p.generate(request(3), ctxFor(p)));
          if (!out.ok) return [`generate with n = 3 threw ${describeError(out.error)}`];
          return responseProblems(out.value, { n: 3 });
        }),
      );
    }
  }

  if (opts.tools === true) {
    check("a forced tool call comes back as toolCalls: the forced tool, arguments a parsed object with an enum value", (secret) =>
      withProvider(makeProvider, secret, async (p) => {
        const out = await attempt(() => p.generate(toolRequest(), ctxFor(p)));
        if (!out.ok) return [`generate with a forced tool threw ${describeError(out.error)}`];
        const problems = responseProblems(out.value, { n: 1 });
        const calls = out.value.toolCalls;
        if (!Array.isArray(calls) || calls.length === 0) return [...problems, `toolCalls is ${JSON.stringify(calls)}, expected the forced call`];
        const call = calls[0]!;
        if (call.name !== FORCED_TOOL.name) problems.push(`toolCalls[0].name is ${JSON.stringify(call.name)}, expected "${FORCED_TOOL.name}"`);
        const verdict = (call.arguments as Record<string, unknown> | undefined)?.verdict;
        if (!VERDICTS.includes(verdict as string)) problems.push(`toolCalls[0].arguments.verdict is ${JSON.stringify(verdict)}, expected one of ${VERDICTS.join(", ")}`);
        return problems;
      }),
    );
  }

  check("loglikelihood (when present) gives a finite logprob <= 0 and an integer token count", (secret) =>
    withProvider(makeProvider, secret, async (p) => {
      if (typeof p.loglikelihood !== "function") return [];
      const out = await attempt(() => p.loglikelihood?.({ context: "The capital of France is", continuation: " Paris" }, ctxFor(p)));
      if (!out.ok) return [`loglikelihood threw ${describeError(out.error)}`];
      const r = out.value;
      const problems: string[] = [];
      if (typeof r !== "object" || r === null) return [`loglikelihood returned ${String(r)}, expected an object`];
      if (typeof r.logprob !== "number" || !Number.isFinite(r.logprob) || r.logprob > 0) problems.push(`logprob is ${r.logprob}, expected a finite number <= 0`);
      if (!Number.isInteger(r.tokenCount) || r.tokenCount < 1) problems.push(`tokenCount is ${r.tokenCount}, expected a positive integer`);
      if (typeof r.isGreedy !== "boolean") problems.push(`isGreedy is ${JSON.stringify(r.isGreedy)}, expected a boolean`);
      return problems;
    }),
  );

  check("loglikelihoodBatch (when present) gives one result per request, in order, equal to loglikelihood's", (secret) =>
    withProvider(makeProvider, secret, async (p) => {
      if (typeof p.loglikelihoodBatch !== "function") return [];
      if (typeof p.loglikelihood !== "function") return ["loglikelihoodBatch is present without loglikelihood"];
      const context = "The capital of France is";
      const requests = [" Paris", " a city on the Seine", " Rome"].map((continuation) => ({ context, continuation }));
      const batch = await attempt(() => p.loglikelihoodBatch!(requests, ctxFor(p)));
      if (!batch.ok) return [`loglikelihoodBatch threw ${describeError(batch.error)}`];
      if (!Array.isArray(batch.value) || batch.value.length !== requests.length) {
        return [`loglikelihoodBatch returned ${Array.isArray(batch.value) ? `${batch.value.length} result(s)` : String(batch.value)}, expected ${requests.length}`];
      }
      const problems: string[] = [];
      for (const [i, request] of requests.entries()) {
        const alone = await attempt(() => p.loglikelihood!(request, ctxFor(p)));
        if (!alone.ok) return [`loglikelihood threw ${describeError(alone.error)}`];
        const got = batch.value[i];
        if (got?.logprob !== alone.value.logprob || got?.tokenCount !== alone.value.tokenCount) {
          problems.push(`result ${i} (${JSON.stringify(request.continuation)}) is ${JSON.stringify(got)}, loglikelihood alone gives ${JSON.stringify(alone.value)}`);
        }
      }
      return problems;
    }),
  );

  check("describeServedModel (when present) gives undefined or a well-formed description", (secret) =>
    withProvider(makeProvider, secret, async (p) => {
      if (typeof p.describeServedModel !== "function") return [];
      const out = await attempt(() => p.describeServedModel?.());
      if (!out.ok) return [`describeServedModel threw ${describeError(out.error)}`];
      const info = out.value;
      if (info === undefined) return [];
      if (typeof info !== "object" || info === null) return [`describeServedModel returned ${String(info)}`];
      const problems: string[] = [];
      if (info.root !== undefined && typeof info.root !== "string") problems.push("root is not a string");
      if (info.ownedBy !== undefined && typeof info.ownedBy !== "string") problems.push("ownedBy is not a string");
      if (info.maxModelLen !== undefined && !(Number.isInteger(info.maxModelLen) && info.maxModelLen > 0)) problems.push("maxModelLen is not a positive integer");
      if (JSON.stringify(info).includes(secret)) problems.push("the description contains the API key");
      return problems;
    }),
  );

  if (opts.makeFailingProvider) {
    const makeFailing = opts.makeFailingProvider;
    check("a failing server gives an ApiCallError/YardstickError without the API key", (secret) =>
      withProvider(makeFailing, secret, async (p) => {
        const problems: string[] = [];
        const calls: [string, () => Promise<unknown>][] = kinds.map(([kind, request]) => [`generate (${kind})`, () => p.generate(request(), ctxFor(p))]);
        if (typeof p.loglikelihood === "function") calls.push(["loglikelihood", () => p.loglikelihood!({ context: "Hello", continuation: " world" }, ctxFor(p))]);
        for (const [what, call] of calls) {
          const out = await attempt(call);
          if (out.ok) problems.push(`${what} succeeded against the failing server`);
          else if (!YardstickError.isInstance(out.error)) problems.push(`${what} threw ${describeError(out.error)}, expected an ApiCallError or another YardstickError`);
          else if (errorText(out.error).includes(secret)) problems.push(`${what}: the error (message, fields, stack or cause) contains the API key`);
          else if (ApiCallError.isInstance(out.error) && typeof out.error.retryable !== "boolean") problems.push(`${what}: ApiCallError.retryable is not a boolean`);
        }
        return problems;
      }),
    );
  }

  check("close (when present) can be called twice", async (secret) => {
    const p = await makeProvider({ apiKey: secret });
    if (typeof p.close !== "function") return [];
    await attempt(() => p.generate((kinds[0]?.[1] ?? chatRequest)(), ctxFor(p)));
    const first = await attempt(() => p.close?.());
    const second = await attempt(() => p.close?.());
    return [first, second].flatMap((o, i) => (o.ok ? [] : [`close #${i + 1} threw ${describeError(o.error)}`]));
  });

  check("a needsLabelSet provider answers from ctx.labelSet, and refuses a call without one", (secret) =>
    withProvider(makeProvider, secret, async (p) => {
      if (!p.needsLabelSet) return [];
      const problems: string[] = [];
      const request = kinds[0]?.[1]() ?? chatRequest();
      for (const set of [labelSet, OTHER_LABELS]) {
        const out = await attempt(() => p.generate(request, { labelSet: set }));
        if (!out.ok) problems.push(`generate with labels ${set.labels.join("/")} threw ${describeError(out.error)}`);
        else if (!out.value.choices.every((c) => set.labels.includes(c.text))) {
          problems.push(`with labels ${set.labels.join("/")} it answered ${JSON.stringify(out.value.choices.map((c) => c.text))}`);
        }
      }
      const without = await attempt(() => p.generate(request, {}));
      if (without.ok) problems.push("generate without a label set succeeded");
      else if (!YardstickError.isInstance(without.error)) problems.push(`generate without a label set threw ${describeError(without.error)}, expected a YardstickError`);
      return problems;
    }),
  );
  return checks;
}

function providerContractProblems(p: ModelProviderV1): string[] {
  const o = p as unknown as Record<string, unknown> | null;
  if (typeof o !== "object" || o === null) return [`provider is ${o === null ? "null" : typeof o}, expected an object`];
  const problems: string[] = [];
  if (o.specVersion !== "v1") problems.push(`specVersion is ${JSON.stringify(o.specVersion)}, expected "v1"`);
  for (const name of ["id", "modelId"]) {
    const value = o[name];
    if (typeof value !== "string" || value.trim() === "") problems.push(`${name} is ${JSON.stringify(value)}, expected a non-empty string`);
  }
  if (typeof o.identity !== "function") problems.push("identity is not a function");
  else {
    const identity = (o.identity as () => unknown)();
    if (typeof identity !== "string" || identity === "") problems.push(`identity() is ${JSON.stringify(identity)}, expected a non-empty string`);
  }
  if (typeof o.generate !== "function") problems.push("generate is not a function");
  for (const name of ["loglikelihood", "loglikelihoodBatch", "describeServedModel", "close"]) {
    if (o[name] !== undefined && typeof o[name] !== "function") problems.push(`${name} is present but not a function`);
  }
  if (o.needsLabelSet !== undefined && typeof o.needsLabelSet !== "boolean") problems.push("needsLabelSet is present but not a boolean");
  return problems;
}
