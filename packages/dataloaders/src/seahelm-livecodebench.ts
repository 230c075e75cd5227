/**
 * `seahelm-livecodebench`: SEA-HELM's LiveCodeBench tasks (livecodebench_v1 … _v6). Each version
 * reads the release files of the Hub dataset `livecodebench/code_generation_lite` up to it (v1:
 * test.jsonl; v2: test.jsonl and test2.jsonl; …), from the hub cache (downloaded on first use: see
 * hub-snapshot.ts) or a `dir` folder holding them.
 *
 * Samples keep the shape SEA-HELM's LiveCodeBenchDataloader gives its metric: id = question_id;
 * one prompt `{question, format_prompt}` (the stdin instructions, or the starter code to complete);
 * `raw.test_cases = {public: [...], private: "<base64 zlib pickle>"}` (the private tests are decoded
 * by the metric); `metadata: {language: "en", platform, contest_date, difficulty, func_name}`.
 */
import { type DataloaderContext, DataLoadError, type Sample, sha256File } from "@yardstick/core";
import { z } from "zod";
import { type HubFilesDataloader, hubRepoId, parseLoaderOptions, snapshotFiles, snapshotStatus, type SnapshotSettings } from "./hub-snapshot.js";
import { assertReadableFile, readRows } from "./read-rows.js";

export const SEAHELM_LIVECODEBENCH_ID = "seahelm-livecodebench";

const RELEASE_FILES = ["test.jsonl", "test2.jsonl", "test3.jsonl", "test4.jsonl", "test5.jsonl", "test6.jsonl"];
const VERSIONS = ["v1", "v2", "v3", "v4", "v5", "v6"] as const;

/** The files a version reads: every release up to it, as upstream. */
export const liveCodeBenchFiles = (version: (typeof VERSIONS)[number]): string[] => RELEASE_FILES.slice(0, VERSIONS.indexOf(version) + 1);

export const seahelmLiveCodeBenchDataOptionsSchema = z.object({
  repo: hubRepoId.default("livecodebench/code_generation_lite"),
  /** The release (the suffix of the task key livecodebench_<version>). */
  version: z.enum(VERSIONS),
  /** A folder holding the dataset's files, instead of the Hugging Face cache's snapshot. */
  dir: z.string().min(1).optional(),
  revision: z.string().min(1).optional(),
  limit: z.int().positive().optional(),
});

type LiveCodeBenchOptions = z.output<typeof seahelmLiveCodeBenchDataOptionsSchema>;

const parseOptions = (options: Record<string, unknown>): LiveCodeBenchOptions =>
  parseLoaderOptions(SEAHELM_LIVECODEBENCH_ID, seahelmLiveCodeBenchDataOptionsSchema, options);

const rowSchema = z.looseObject({
  question_id: z.union([z.string(), z.number()]),
  question_content: z.string(),
  platform: z.string().optional(),
  contest_date: z.string().optional(),
  difficulty: z.string().optional(),
  starter_code: z.string().optional(),
  public_test_cases: z.string(),
  private_test_cases: z.string(),
  metadata: z.string().optional(),
});

const STDIN_FORMAT =
  "### Format: Read the inputs from stdin solve the problem and write the answer to stdout (do not directly test on the sample inputs). Enclose your code within delimiters as follows.\n```python\n# YOUR CODE HERE\n```";
const starterFormat = (starter: string) =>
  `### Format: You will use the following starter code to write the solution to the problem and enclose your code within delimiters.\n\`\`\`python\n${starter}\n\`\`\``;

/** The dataset row mapped as SEA-HELM's dataloader maps it. */
function toSample(row: unknown, where: { file: string; line: number }): Sample {
  const bad = (what: string) =>
    new DataLoadError(`bad LiveCodeBench row: ${what} (expected question_id, question_content, public_test_cases, private_test_cases, metadata)`, where);
  const parsed = rowSchema.safeParse(row);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw bad(`${issue.path.length > 0 ? issue.path.join(".") : "row"}: ${issue.message}`);
  }
  const r = parsed.data;
  let publicTests: unknown;
  let rowMetadata: Record<string, unknown>;
  try {
    publicTests = JSON.parse(r.public_test_cases);
    rowMetadata = r.metadata ? (JSON.parse(r.metadata) as Record<string, unknown>) : {};
  } catch (e) {
    throw bad(`public_test_cases and metadata must be JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(publicTests)) throw bad("public_test_cases must be a JSON list");
  const funcName = typeof rowMetadata?.func_name === "string" ? rowMetadata.func_name : null;
  const id = String(r.question_id);
  const starter = r.starter_code ?? "";
  const metadata = { language: "en", platform: r.platform, contest_date: r.contest_date, difficulty: r.difficulty, func_name: funcName };
  const test_cases = { public: publicTests, private: r.private_test_cases };
  return {
    id,
    prompts: [{ question: r.question_content, format_prompt: starter === "" ? STDIN_FORMAT : starterFormat(starter) }],
    metadata,
    raw: { id, test_cases, metadata },
  };
}

async function dataFiles(o: LiveCodeBenchOptions, ctx: DataloaderContext, settings: SnapshotSettings) {
  const { files, commit } = await snapshotFiles(o, liveCodeBenchFiles(o.version), ctx, settings);
  for (const f of files) await assertReadableFile(f);
  return { files, commit };
}

export function createSeahelmLiveCodeBenchDataloader(settings: SnapshotSettings = {}): HubFilesDataloader {
  return {
    specVersion: "v1",
    id: SEAHELM_LIVECODEBENCH_ID,
    async *load(options, ctx = {}) {
      const o = parseOptions(options);
      const { files } = await dataFiles(o, ctx, settings);
      let count = 0;
      for (const file of files) {
        for await (const { row, line } of readRows(file, ctx.signal)) {
          if (o.limit !== undefined && count >= o.limit) return;
          count++;
          yield toSample(row, { file, line });
        }
      }
    },
    /** `sha256:<hex>` of each release file read, after `hf:<repo>@<commit>:` when they came from the Hub. */
    async fingerprint(options, ctx = {}) {
      const o = parseOptions(options);
      const { files, commit } = await dataFiles(o, ctx, settings);
      const hashes: string[] = [];
      for (const f of files) hashes.push(`sha256:${await sha256File(f, ctx.signal)}`);
      const hash = hashes.join(",");
      return commit === undefined ? hash : `hf:${o.repo}@${commit}:${hash}`;
    },
    checkOptions: (options) => void parseOptions(options),
    hubDataStatus: async (options) => {
      const o = parseOptions(options);
      return snapshotStatus(o, liveCodeBenchFiles(o.version), settings);
    },
  };
}
