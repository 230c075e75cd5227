/**
 * `seahelm-healthbench`: SEA-HELM's HealthBench tasks. Each task reads one JSONL file of the Hub
 * dataset `openai/healthbench` (from the hub cache, downloaded on first use: see hub-snapshot.ts). A row's own conversation
 * (`prompt`: `{role, content}` messages) is what the model answers, and its rubric (`rubrics`:
 * `{criterion, points}`) is what the `seahelm-healthbench` judge grades the answer against.
 *
 * Samples keep upstream's shape: id = the row's 0-based index, `raw.conversations`, `raw.criteria`,
 * `metadata: {language: "en", example_tags}` (plus the dataset's `prompt_id`).
 */
import { type ChatMessage, type DataloaderContext, DataLoadError, type Sample, sha256File } from "@yardstick/core";
import { z } from "zod";
import { type HubFilesDataloader, hubRepoId, parseLoaderOptions, type SnapshotSettings, snapshotFiles, snapshotStatus } from "./hub-snapshot.js";
import { assertReadableFile, readRows } from "./read-rows.js";

export const SEAHELM_HEALTHBENCH_ID = "seahelm-healthbench";

/** The file each SEA-HELM HealthBench task reads from the dataset. */
export const HEALTHBENCH_FILES = {
  healthbench: "2025-05-07-06-14-12_oss_eval.jsonl",
  healthbench_consensus: "consensus_2025-05-09-20-00-46.jsonl",
  healthbench_hard: "hard_2025-05-08-21-00-10.jsonl",
} as const;

export const seahelmHealthbenchOptionsSchema = z
  .object({
    repo: hubRepoId.default("openai/healthbench"),
    /** Which task's file (`healthbench`, `healthbench_consensus`, `healthbench_hard`). */
    subset: z.enum(Object.keys(HEALTHBENCH_FILES) as [keyof typeof HEALTHBENCH_FILES]).optional(),
    /** Another JSONL file of the dataset, by its path in the repo. */
    file: z.string().min(1).optional(),
    /** A folder holding the dataset's files, instead of the Hugging Face cache's snapshot. */
    dir: z.string().min(1).optional(),
    revision: z.string().min(1).optional(),
    limit: z.int().positive().optional(),
  })
  .refine((o) => (o.subset === undefined) !== (o.file === undefined), { message: "give exactly one of subset and file", path: ["subset"] });

type HealthbenchOptions = z.output<typeof seahelmHealthbenchOptionsSchema>;

const parseOptions = (options: Record<string, unknown>): HealthbenchOptions => parseLoaderOptions(SEAHELM_HEALTHBENCH_ID, seahelmHealthbenchOptionsSchema, options);

const messageSchema = z.looseObject({ role: z.enum(["system", "user", "assistant"]), content: z.string() });
const rubricSchema = z.looseObject({ criterion: z.string(), points: z.number() });
const rowSchema = z.looseObject({
  prompt: z.array(messageSchema).min(1),
  rubrics: z.array(rubricSchema).min(1),
  example_tags: z.array(z.string()).optional(),
  prompt_id: z.string().optional(),
});

/** The task's JSONL file (downloaded into the hub cache when missing) and the commit it is from. */
async function dataFile(o: HealthbenchOptions, ctx: DataloaderContext, settings: SnapshotSettings): Promise<{ file: string; commit: string | undefined }> {
  const { files, commit } = await snapshotFiles(o, [repoFile(o)], ctx, settings);
  await assertReadableFile(files[0]!);
  return { file: files[0]!, commit };
}

const repoFile = (o: HealthbenchOptions): string => o.file ?? HEALTHBENCH_FILES[o.subset!];

/** The upstream row mapped to SEA-HELM's HealthBench sample. */
function toSample(row: unknown, where: { file: string; line: number; index: number }): Sample {
  const parsed = rowSchema.safeParse(row);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.length > 0 ? issue.path.join(".") : "row";
    throw new DataLoadError(`bad HealthBench row: ${at}: ${issue.message} (expected {prompt: [{role, content}], rubrics: [{criterion, points}], example_tags})`, {
      file: where.file,
      line: where.line,
    });
  }
  const r = parsed.data;
  const conversations: ChatMessage[] = r.prompt.map((m) => ({ role: m.role, content: m.content }));
  const criteria = r.rubrics.map((c) => ({ ...c }));
  const metadata: Record<string, unknown> = { language: "en", example_tags: r.example_tags ?? [] };
  if (r.prompt_id !== undefined) metadata.prompt_id = r.prompt_id;
  const id = String(where.index);
  return { id, prompts: [{ conversations }], metadata, raw: { id, conversations, criteria, metadata } };
}

export function createSeahelmHealthbenchDataloader(settings: SnapshotSettings = {}): HubFilesDataloader {
  return {
    specVersion: "v1",
    id: SEAHELM_HEALTHBENCH_ID,
    async *load(options, ctx = {}) {
      const o = parseOptions(options);
      const { file } = await dataFile(o, ctx, settings);
      for await (const { row, line, index } of readRows(file, ctx.signal)) {
        if (o.limit !== undefined && index >= o.limit) break;
        yield toSample(row, { file, line, index });
      }
    },
    /** `sha256:<hex>` of the JSONL file read, after `hf:<repo>@<commit>:` when it came from the Hub. */
    async fingerprint(options, ctx = {}) {
      const o = parseOptions(options);
      const { file, commit } = await dataFile(o, ctx, settings);
      const hash = `sha256:${await sha256File(file, ctx.signal)}`;
      return commit === undefined ? hash : `hf:${o.repo}@${commit}:${hash}`;
    },
    checkOptions: (options) => void parseOptions(options),
    hubDataStatus: async (options) => {
      const o = parseOptions(options);
      return snapshotStatus(o, [repoFile(o)], settings);
    },
  };
}
