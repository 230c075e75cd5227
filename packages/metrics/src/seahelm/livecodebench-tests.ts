/**
 * LiveCodeBench test cases as SEA-HELM's LiveCodeBench dataloader hands them to its metric: public
 * tests as a list (the dataset stores a JSON string), private tests as base64 of a zlib-compressed
 * pickle of a JSON string, and the function name (functional problems) in the metadata. Rows
 * straight from the dataset (`public_test_cases`, `private_test_cases`, `metadata` as strings) are
 * read too.
 */
import { inflateSync } from "node:zlib";
import { type MetricInput, MetricError } from "@yardstick/core";
import { describe } from "./common.js";

export interface LiveCodeBenchTest {
  input: string;
  output: string;
}

export interface LiveCodeBenchProblem {
  tests: LiveCodeBenchTest[];
  /** The function to call (LeetCode-style problems); null for stdin/stdout problems. */
  funcName: string | null;
}

/**
 * The string a pickle holds. Only what `pickle.dumps(str)` writes is read (protocol header, frame,
 * unicode string, memo, stop); anything else is refused, so no object is ever built from the data.
 */
export function unpickleString(bytes: Uint8Array): string {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  let value: string | undefined;
  const need = (n: number) => {
    if (pos + n > view.length) throw new Error("truncated pickle");
  };
  const readString = (length: number) => {
    need(length);
    value = view.toString("utf8", pos, pos + length);
    pos += length;
  };
  while (pos < view.length) {
    const op = view[pos++]!;
    switch (op) {
      case 0x80: // PROTO
        need(1);
        pos += 1;
        break;
      case 0x95: // FRAME
        need(8);
        pos += 8;
        break;
      case 0x8c: // SHORT_BINUNICODE
        need(1);
        readString(view[pos++]!);
        break;
      case 0x58: // BINUNICODE
        need(4);
        pos += 4;
        readString(view.readUInt32LE(pos - 4));
        break;
      case 0x8d: {
        // BINUNICODE8
        need(8);
        const length = Number(view.readBigUInt64LE(pos));
        pos += 8;
        readString(length);
        break;
      }
      case 0x94: // MEMOIZE
        break;
      case 0x71: // BINPUT
        need(1);
        pos += 1;
        break;
      case 0x72: // LONG_BINPUT
        need(4);
        pos += 4;
        break;
      case 0x2e: // STOP
        if (value === undefined) throw new Error("the pickle holds no string");
        return value;
      default:
        throw new Error(`the pickle holds something other than a string (opcode 0x${op.toString(16)})`);
    }
  }
  throw new Error("truncated pickle");
}

function testList(value: unknown, what: string): LiveCodeBenchTest[] {
  const list = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  if (!Array.isArray(list)) throw new Error(`${what} must be a list of tests, got ${describe(list)}`);
  return list.map((t, i) => {
    const test = t as { input?: unknown; output?: unknown };
    if (typeof test?.input !== "string" || typeof test?.output !== "string") {
      throw new Error(`${what}[${i}] must have string input and output`);
    }
    return { input: test.input, output: test.output };
  });
}

/** Private tests: a JSON list as it is, or the dataset's base64(zlib(pickle(json))) string. */
export function decodePrivateTests(value: unknown): LiveCodeBenchTest[] {
  if (typeof value === "string" && !value.trimStart().startsWith("[")) {
    const json = unpickleString(inflateSync(Buffer.from(value, "base64")));
    return testList(json, "the private tests");
  }
  return testList(value, "the private tests");
}

function objectField(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === "string") {
    try {
      return objectField(JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The tests (public, then private) and function name of one sample. */
export function liveCodeBenchProblem(metricId: string, input: MetricInput): LiveCodeBenchProblem {
  const raw = input.sample?.raw ?? {};
  const fail = (message: string): never => {
    throw new MetricError(message, { metricId, sampleId: input.sampleId });
  };
  try {
    const grouped = objectField(raw.test_cases);
    const publicTests = testList(grouped ? grouped.public : raw.public_test_cases, "the public tests");
    const privateField = grouped ? grouped.private : raw.private_test_cases;
    const privateTests = privateField === undefined || privateField === "" ? [] : decodePrivateTests(privateField);
    const metadata = { ...objectField(raw.metadata), ...input.sample?.metadata };
    const name = metadata.func_name;
    if (name !== undefined && name !== null && name !== "" && (typeof name !== "string" || !IDENTIFIER.test(name))) {
      fail(`metadata.func_name must be a Python identifier, got ${describe(name)}`);
    }
    return { tests: [...publicTests, ...privateTests], funcName: typeof name === "string" && name !== "" ? name : null };
  } catch (e) {
    if (e instanceof MetricError) throw e;
    return fail(
      `cannot read the LiveCodeBench test cases of the sample (expected test_cases {public, private} or public_test_cases/private_test_cases): ${(e as Error).message}`,
    );
  }
}
