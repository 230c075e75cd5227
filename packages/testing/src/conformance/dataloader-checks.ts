import { isDeepStrictEqual } from "node:util";
import { ConfigError, type DataloaderContext, type DataloaderV1, DataLoadError, type Sample } from "@yardstick/core";
import { checkOptionsAccepts, checkOptionsRejects } from "./options-checks.js";
import { plainDataProblems } from "./plain-data.js";
import { attempt } from "./run-checks.js";
import { describeError } from "./run-compute.js";
import type { ConformanceCheck } from "./types.js";

export interface DataloaderConformanceCase {
  /** Shown in test names; defaults to "case <n>". */
  name?: string;
  /** Valid options (a task's `data.options`) reading at least one sample. */
  options: Record<string, unknown>;
  ctx?: DataloaderContext;
  /** The number of samples `load` must yield, when known. */
  expectedCount?: number;
  /**
   * Changes the data these options read (rewrites the file, serves another revision, ...), for the
   * fingerprint check, which runs after the case's other checks. Resolves to the options that read
   * the changed data, or to nothing when the same options now do. Required when the loader has `fingerprint`.
   */
  changeData?: () => Promise<Record<string, unknown> | undefined>;
}

export interface DataloaderConformanceCases {
  cases: readonly DataloaderConformanceCase[];
  /** Options `load` must refuse with a ConfigError or DataLoadError (and `checkOptions` too, when `load` says ConfigError). */
  invalidOptions: readonly Record<string, unknown>[];
  /** Context for the invalid-options checks. */
  ctx?: DataloaderContext;
}

type LoaderFactory = () => DataloaderV1 | Promise<DataloaderV1>;

async function collect(loader: DataloaderV1, options: Record<string, unknown>, ctx: DataloaderContext | undefined): Promise<Sample[]> {
  const out: Sample[] = [];
  for await (const sample of loader.load(options, ctx)) out.push(sample);
  return out;
}

const isAbort = (error: unknown, reason: unknown): boolean =>
  error === reason ||
  (error instanceof Error && (error.name === "AbortError" || error.cause === reason)) ||
  (typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError");

/** The checks `testDataloader` registers and `checkDataloaderConformance` runs. */
export function planDataloaderChecks(makeLoader: LoaderFactory, cases: DataloaderConformanceCases): ConformanceCheck[] {
  const checks: ConformanceCheck[] = [{ name: "satisfies the DataloaderV1 contract", run: async () => dataloaderContractProblems(await makeLoader()) }];

  cases.cases.forEach((c, i) => {
    const label = c.name ?? `case ${i + 1}`;
    const at = (name: string, run: () => Promise<string[]>): void => {
      checks.push({ name: `${name} (${label})`, caseName: label, run });
    };
    at("yields samples with unique string ids, a prompts array and a raw object", async () => {
      const loaded = await attempt(async () => collect(await makeLoader(), c.options, c.ctx));
      if (!loaded.ok) return [`load threw ${describeError(loaded.error)}`];
      const samples = loaded.value;
      if (samples.length === 0) return ["load yielded no samples"];
      const problems = samples.flatMap((s, n) => sampleProblems(s, n));
      const ids = new Set<string>();
      for (const s of samples) {
        if (ids.has(s.id)) problems.push(`sample id "${s.id}" occurs more than once`);
        ids.add(s.id);
      }
      if (c.expectedCount !== undefined && samples.length !== c.expectedCount) problems.push(`load yielded ${samples.length} samples, expected ${c.expectedCount}`);
      return problems;
    });
    at("yields the same samples in the same order twice", async () => {
      const loader = await makeLoader();
      const first = await attempt(() => collect(loader, c.options, c.ctx));
      const second = await attempt(() => collect(loader, c.options, c.ctx));
      if (!first.ok || !second.ok) return [`load threw ${describeError(first.ok ? (second as { error: unknown }).error : first.error)}`];
      if (first.value.length !== second.value.length) return [`the loads yielded ${first.value.length} and ${second.value.length} samples`];
      const differs = first.value.findIndex((s, n) => !isDeepStrictEqual(s, second.value[n]));
      return differs === -1 ? [] : [`sample #${differs} (id "${first.value[differs]?.id}") differs between two loads`];
    });
    at("loadBatches, when it has one, yields the samples of load in the same order", async () => {
      const loader = await makeLoader();
      if (typeof loader.loadBatches !== "function") return [];
      const loaded = await attempt(() => collect(loader, c.options, c.ctx));
      const batched = await attempt(async () => {
        const out: Sample[] = [];
        for await (const batch of loader.loadBatches!(c.options, c.ctx)) {
          if (!Array.isArray(batch) || batch.length === 0) throw new Error(`a batch is ${Array.isArray(batch) ? "empty" : `not an array (${typeof batch})`}`);
          out.push(...batch);
        }
        return out;
      });
      if (!loaded.ok) return [`load threw ${describeError(loaded.error)}`];
      if (!batched.ok) return [`loadBatches threw ${describeError(batched.error)}`];
      if (loaded.value.length !== batched.value.length) return [`load yielded ${loaded.value.length} samples and loadBatches ${batched.value.length}`];
      const differs = loaded.value.findIndex((s, n) => !isDeepStrictEqual(s, batched.value[n]));
      return differs === -1 ? [] : [`sample #${differs} (id "${loaded.value[differs]?.id}") differs between load and loadBatches`];
    });
    at("honours an abort signal", async () => {
      const loader = await makeLoader();
      const problems: string[] = [];
      const before = new AbortController();
      before.abort(new Error("aborted by the conformance suite"));
      const yielded: Sample[] = [];
      const pre = await attempt(async () => {
        for await (const s of loader.load(c.options, { ...c.ctx, signal: before.signal })) yielded.push(s);
      });
      if (pre.ok) problems.push(`with an already aborted signal, load completed and yielded ${yielded.length} sample(s)`);
      else if (!isAbort(pre.error, before.signal.reason)) problems.push(`with an already aborted signal, load threw ${describeError(pre.error)}, expected the abort reason`);
      else if (yielded.length > 0) problems.push(`with an already aborted signal, load yielded ${yielded.length} sample(s) first`);

      // Aborted after the first sample: the loader may finish what it holds, but any error must be the abort.
      const during = new AbortController();
      const mid = await attempt(async () => {
        for await (const _ of loader.load(c.options, { ...c.ctx, signal: during.signal })) during.abort(new Error("aborted by the conformance suite"));
      });
      if (!mid.ok && !isAbort(mid.error, during.signal.reason)) problems.push(`aborted during load, it threw ${describeError(mid.error)}, expected the abort reason`);
      return problems;
    });
    at("checkOptions accepts its options", async () => checkOptionsAccepts(await makeLoader(), c.options));
    at("has a stable fingerprint that changes with the data", async () => {
      const loader = await makeLoader();
      if (typeof loader.fingerprint !== "function") return [];
      if (c.changeData === undefined) return ["the loader has fingerprint, but the case gives no changeData to check it with"];
      const first = await attempt(() => loader.fingerprint?.(c.options, c.ctx));
      const second = await attempt(() => loader.fingerprint?.(c.options, c.ctx));
      if (!first.ok || !second.ok) return [`fingerprint threw ${describeError(first.ok ? (second as { error: unknown }).error : first.error)}`];
      if (typeof first.value !== "string" || first.value === "") return [`fingerprint returned ${JSON.stringify(first.value)}, expected a non-empty string`];
      if (first.value !== second.value) return [`fingerprint is not stable: ${first.value} then ${second.value}`];
      const changedOptions = (await c.changeData()) ?? c.options;
      const changed = await attempt(() => loader.fingerprint?.(changedOptions, c.ctx));
      if (!changed.ok) return [`fingerprint of the changed data threw ${describeError(changed.error)}`];
      return changed.value === first.value ? [`fingerprint ${first.value} did not change when the data changed`] : [];
    });
  });

  cases.invalidOptions.forEach((bad, i) => {
    checks.push({
      name: `rejects invalid options #${i + 1} with a ConfigError or DataLoadError`,
      run: async () => {
        const loader = await makeLoader();
        const shown = JSON.stringify(bad);
        const outcome = await attempt(() => collect(loader, bad, cases.ctx));
        if (outcome.ok) return [`load accepted ${shown} and yielded ${outcome.value.length} sample(s)`];
        const error = outcome.error;
        if (!ConfigError.isInstance(error) && !DataLoadError.isInstance(error)) {
          return [`load(${shown}) threw ${describeError(error)}, expected a ConfigError or DataLoadError`];
        }
        // Bad options (not missing data) must be caught up front too, when the loader can check them.
        return ConfigError.isInstance(error) ? checkOptionsRejects(loader, bad) : [];
      },
    });
  });
  return checks;
}

function sampleProblems(sample: Sample, n: number): string[] {
  const s = sample as unknown as Record<string, unknown>;
  const at = `sample #${n}${typeof s?.id === "string" ? ` ("${s.id}")` : ""}`;
  if (typeof s !== "object" || s === null) return [`${at} is ${typeof s}, expected an object`];
  const problems: string[] = [];
  if (typeof s.id !== "string" || s.id === "") problems.push(`${at}: id is ${JSON.stringify(s.id)}, expected a non-empty string`);
  if (!Array.isArray(s.prompts)) problems.push(`${at}: prompts is not an array`);
  else if (s.prompts.some((p) => typeof p !== "object" || p === null || Array.isArray(p))) problems.push(`${at}: prompts holds something other than objects`);
  if (typeof s.raw !== "object" || s.raw === null || Array.isArray(s.raw)) problems.push(`${at}: raw is not an object`);
  if (s.metadata !== undefined && (typeof s.metadata !== "object" || s.metadata === null || Array.isArray(s.metadata))) {
    problems.push(`${at}: metadata is present but not an object`);
  }
  problems.push(...plainDataProblems(sample).map((p) => `${at}: ${p.replace(/^the value/, "the sample")}`));
  return problems;
}

function dataloaderContractProblems(loader: DataloaderV1): string[] {
  const o = loader as unknown as Record<string, unknown> | null;
  if (typeof o !== "object" || o === null) return [`dataloader is ${o === null ? "null" : typeof o}, expected an object`];
  const problems: string[] = [];
  if (o.specVersion !== "v1") problems.push(`specVersion is ${JSON.stringify(o.specVersion)}, expected "v1"`);
  if (typeof o.id !== "string" || o.id.trim() === "") problems.push(`id is ${JSON.stringify(o.id)}, expected a non-empty string`);
  if (typeof o.load !== "function") problems.push("load is not a function");
  for (const name of ["loadBatches", "fingerprint", "checkOptions"]) {
    if (o[name] !== undefined && typeof o[name] !== "function") problems.push(`${name} is present but not a function`);
  }
  return problems;
}

