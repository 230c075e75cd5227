import { isDeepStrictEqual } from "node:util";
import type { Judgement, JudgeRequest, JudgeV2, ModelResponse, Sample, StoredAnswer, TaskSpec, ToolCall } from "@yardstick/core";
import { checkOptionsAccepts, checkOptionsRejects, rejectionProblems } from "./options-checks.js";
import { plainDataProblems } from "./plain-data.js";
import { ROBUSTNESS_INPUTS } from "./postprocessor-checks.js";
import { attempt } from "./run-checks.js";
import { describeError } from "./run-compute.js";
import type { ConformanceCheck } from "./types.js";

/** A reply with a known judgement: the listed fields of `parse`'s result must equal `expected`. */
export interface JudgeReplyExample {
  name?: string;
  /** The judge request it answers (default: the first request of the case). */
  requestId?: string;
  /** The reply text, or a whole response (e.g. with tool calls). */
  response: string | ModelResponse;
  /** Fields the judgement must have: `score`, `label`; `error: true` means "has an error". */
  expected: { score?: number; label?: string; error?: boolean };
}

/** One sample a judge is run on. */
export interface JudgeConformanceCase {
  name?: string;
  sample: Sample;
  answers: StoredAnswer[];
  options: Record<string, unknown>;
  task: TaskSpec;
  /** How many requests `buildRequests` must return (unchecked when absent; at least one either way). */
  expectedRequests?: number;
  replies?: JudgeReplyExample[];
}

export interface JudgeConformanceCases {
  cases: JudgeConformanceCase[];
  /** Option objects the judge must refuse: `checkOptions` (when present) with a ConfigError, `buildRequests` with a YardstickError. */
  invalidOptions?: Record<string, unknown>[];
}

/** A response holding `text` as its only choice. */
export function textResponse(text: string, toolCalls?: ToolCall[]): ModelResponse {
  const choice = { text, finishReason: toolCalls ? ("tool_calls" as const) : ("stop" as const), ...(toolCalls ? { toolCalls } : {}) };
  return { text, finishReason: choice.finishReason, ...(toolCalls ? { toolCalls } : {}), choices: [choice] };
}

/** Replies no judge can make sense of, and replies that look almost right; `parse` must survive every one. */
export const GARBAGE_REPLIES: readonly [string, ModelResponse][] = [
  ...ROBUSTNESS_INPUTS.map(([what, text]): [string, ModelResponse] => [what, textResponse(text)]),
  ["every label at once", textResponse("[[A]] [[B]] [[C]] <classification>CLASS_X</classification> CORRECT INCORRECT TRUE FALSE CHOICE: a")],
  ["broken JSON", textResponse('{"criteria_met": tru')],
  ["JSON of the wrong type", textResponse('{"criteria_met": "yes", "choice": 3}')],
  ["unclosed tags", textResponse("<reflection>hmm<classification>")],
  ["a tool call to an unknown tool", textResponse("", [{ name: "not_a_tool", arguments: { choice: "x" } }])],
  ["a tool call with odd arguments", textResponse("", [{ name: "record_choice", arguments: { choice: 42, rationale: null } as unknown as Record<string, unknown> }])],
  ["no choices", { text: "", finishReason: "length", choices: [] }],
];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function requestProblems(requests: unknown): string[] {
  if (!Array.isArray(requests)) return [`buildRequests returned ${typeof requests}, expected an array`];
  const problems: string[] = [];
  const seen = new Set<string>();
  requests.forEach((r: unknown, i) => {
    if (!isRecord(r)) {
      problems.push(`request #${i} is not an object`);
      return;
    }
    if (typeof r.id !== "string" || r.id.trim() === "") problems.push(`request #${i} has id ${JSON.stringify(r.id)}, expected a non-empty string`);
    else if (seen.has(r.id)) problems.push(`request id "${r.id}" is used twice`);
    else seen.add(r.id);
    const req = r.request;
    if (!isRecord(req)) {
      problems.push(`request #${i} has no model request`);
      return;
    }
    if (!isRecord(req.params)) problems.push(`request #${i}: params is not an object`);
    if (req.kind === "chat") {
      if (!Array.isArray(req.messages) || req.messages.length === 0) problems.push(`request #${i}: a chat request needs messages`);
      else
        req.messages.forEach((m: unknown, k) => {
          if (!isRecord(m) || !["system", "user", "assistant"].includes(m.role as string)) problems.push(`request #${i}: messages[${k}] has no valid role`);
          else if (typeof m.content !== "string" && !Array.isArray(m.content)) problems.push(`request #${i}: messages[${k}].content is neither text nor parts`);
        });
    } else if (req.kind === "completion") {
      if (typeof req.prompt !== "string") problems.push(`request #${i}: a completion request needs a prompt`);
    } else problems.push(`request #${i}: kind is ${JSON.stringify(req.kind)}, expected "chat" or "completion"`);
    problems.push(...plainDataProblems(r, [`request #${i}`]));
  });
  return problems;
}

/** Problems with what `parse` returned: a plain object with an error, or a finite score or a label. */
function judgementProblems(j: unknown, what: string): string[] {
  if (!isRecord(j)) return [`${what}: parse returned ${String(j)}, expected a Judgement`];
  const problems: string[] = [];
  if (j.error !== undefined && (typeof j.error !== "string" || j.error === "")) problems.push(`${what}: error is ${JSON.stringify(j.error)}, expected a non-empty string`);
  if (j.score !== undefined && !(typeof j.score === "number" && Number.isFinite(j.score))) problems.push(`${what}: score is ${String(j.score)}, expected a finite number`);
  if (j.label !== undefined && typeof j.label !== "string") problems.push(`${what}: label is not a string`);
  if (j.error === undefined && j.score === undefined && j.label === undefined) problems.push(`${what}: the judgement has neither an error nor a score or label`);
  if (j.data !== undefined && !isRecord(j.data)) problems.push(`${what}: data is not an object`);
  problems.push(...plainDataProblems(j).map((p) => `${what}: ${p}`));
  return problems;
}

function contractProblems(judge: JudgeV2): string[] {
  const o = judge as unknown as Record<string, unknown> | null;
  if (!isRecord(o)) return [`judge is ${o === null ? "null" : typeof o}, expected an object`];
  const problems: string[] = [];
  if (o.specVersion !== "v2") problems.push(`specVersion is ${JSON.stringify(o.specVersion)}, expected "v2"`);
  if (typeof o.id !== "string" || o.id.trim() === "") problems.push(`id is ${JSON.stringify(o.id)}, expected a non-empty string`);
  for (const fn of ["buildRequests", "parse"]) if (typeof o[fn] !== "function") problems.push(`${fn} is not a function`);
  for (const fn of ["retryRequest", "checkOptions"]) if (o[fn] !== undefined && typeof o[fn] !== "function") problems.push(`${fn} is present but not a function`);
  return problems;
}

/** The checks `testJudge` registers and `checkJudgeConformance` runs. */
export function planJudgeChecks(judge: JudgeV2, cases: JudgeConformanceCases): ConformanceCheck[] {
  const checks: ConformanceCheck[] = [{ name: "satisfies the JudgeV2 contract", run: async () => contractProblems(judge) }];
  if (contractProblems(judge).length > 0) return checks;
  cases.cases.forEach((c, i) => {
    const caseName = c.name ?? `case ${i + 1}`;
    const build = () => judge.buildRequests(structuredClone(c.sample), structuredClone(c.answers), structuredClone(c.options), { task: structuredClone(c.task) });
    checks.push({
      name: `builds valid requests with unique ids (${caseName})`,
      caseName,
      run: async () => {
        const out = await attempt(build);
        if (!out.ok) return [`buildRequests threw ${describeError(out.error)}`];
        const problems = requestProblems(out.value);
        if (out.value.length === 0) problems.push("buildRequests returned no request for a sample with answers");
        if (c.expectedRequests !== undefined && out.value.length !== c.expectedRequests) problems.push(`${out.value.length} requests, expected ${c.expectedRequests}`);
        return problems;
      },
    });
    checks.push({
      name: `is deterministic and leaves its inputs alone (${caseName})`,
      caseName,
      run: async () => {
        const sample = structuredClone(c.sample);
        const answers = structuredClone(c.answers);
        const options = structuredClone(c.options);
        const task = structuredClone(c.task);
        const first = await attempt(() => judge.buildRequests(sample, answers, options, { task }));
        const second = await attempt(() => judge.buildRequests(sample, answers, options, { task }));
        const problems: string[] = [];
        if (!first.ok || !second.ok) return [`buildRequests threw ${describeError(first.ok ? (second as { error: unknown }).error : first.error)}`];
        if (!isDeepStrictEqual(first.value, second.value)) problems.push("two calls of buildRequests gave different requests");
        if (!isDeepStrictEqual(sample, c.sample)) problems.push("buildRequests mutated the sample");
        if (!isDeepStrictEqual(answers, c.answers)) problems.push("buildRequests mutated the answers");
        if (!isDeepStrictEqual(options, c.options)) problems.push("buildRequests mutated its options");
        return problems;
      },
    });
    checks.push({ name: `checkOptions accepts the options it works with (${caseName})`, caseName, run: () => checkOptionsAccepts(judge, structuredClone(c.options)) });
    checks.push({
      name: `parse never throws, and gives an error or a score for garbage replies (${caseName})`,
      caseName,
      run: async () => {
        const built = await attempt(build);
        if (!built.ok) return [`buildRequests threw ${describeError(built.error)}`];
        const problems: string[] = [];
        for (const request of built.value) {
          for (const [what, response] of GARBAGE_REPLIES) {
            const label = `request ${request.id}, ${what} reply`;
            const ctx = { sample: structuredClone(c.sample), task: structuredClone(c.task), request };
            const once = await attempt(() => judge.parse(structuredClone(response), structuredClone(c.options), ctx));
            if (!once.ok) {
              problems.push(`${label}: parse threw ${describeError(once.error)}`);
              continue;
            }
            problems.push(...judgementProblems(once.value, label));
            const twice = await attempt(() => judge.parse(structuredClone(response), structuredClone(c.options), ctx));
            if (!twice.ok || !isDeepStrictEqual(once.value, twice.value)) problems.push(`${label}: two parses gave different judgements`);
            problems.push(...retryProblems(judge, request, response, once.value, c.options, label));
          }
        }
        return problems;
      },
    });
    (c.replies ?? []).forEach((example, k) => {
      const exampleName = example.name ?? `reply ${k + 1}`;
      checks.push({
        name: `parses the declared reply (${caseName}: ${exampleName})`,
        caseName,
        run: async () => {
          const built = await attempt(build);
          if (!built.ok) return [`buildRequests threw ${describeError(built.error)}`];
          const request = example.requestId === undefined ? built.value[0] : built.value.find((r) => r.id === example.requestId);
          if (!request) return [`no request with id ${JSON.stringify(example.requestId)}`];
          const response = typeof example.response === "string" ? textResponse(example.response) : example.response;
          const out = await attempt(() => judge.parse(response, structuredClone(c.options), { sample: structuredClone(c.sample), task: structuredClone(c.task), request }));
          if (!out.ok) return [`parse threw ${describeError(out.error)}`];
          const j = out.value;
          const problems = judgementProblems(j, exampleName);
          const e = example.expected;
          if (e.error !== undefined && (j.error !== undefined) !== e.error) problems.push(`error is ${JSON.stringify(j.error)}, expected ${e.error ? "an error" : "none"}`);
          if (e.score !== undefined && j.score !== e.score) problems.push(`score is ${j.score}, expected ${e.score}`);
          if (e.label !== undefined && j.label !== e.label) problems.push(`label is ${JSON.stringify(j.label)}, expected ${JSON.stringify(e.label)}`);
          return problems;
        },
      });
    });
  });
  (cases.invalidOptions ?? []).forEach((bad, i) => {
    const c = cases.cases[0];
    checks.push({
      name: `rejects invalid options #${i + 1}`,
      run: async () => {
        const problems = await checkOptionsRejects(judge, bad);
        if (c) problems.push(...rejectionProblems(`buildRequests with options ${JSON.stringify(bad)}`, await attempt(() => judge.buildRequests(c.sample, c.answers, bad, { task: c.task }))));
        return problems;
      },
    });
  });
  return checks;
}

/** A retry, when offered, is a valid request, offered only for a judgement with an error. */
function retryProblems(judge: JudgeV2, request: JudgeRequest, response: ModelResponse, judgement: Judgement, options: Record<string, unknown>, label: string): string[] {
  if (typeof judge.retryRequest !== "function") return [];
  let retry: JudgeRequest | undefined;
  try {
    retry = judge.retryRequest(request, response, judgement, structuredClone(options));
  } catch (error) {
    return [`${label}: retryRequest threw ${describeError(error)}`];
  }
  if (retry === undefined) return [];
  if (judgement.error === undefined) return [`${label}: retryRequest offered a retry for a judgement without an error`];
  return requestProblems([retry]).map((p) => `${label}: retry ${p}`);
}
