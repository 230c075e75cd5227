/**
 * `seahelm-aa-lcr`: SEA-HELM's AA-LCR task (long-context reasoning). The questions are the rows of
 * the dataset's test split (`AA-LCR_Dataset.csv` of `ArtificialAnalysis/AA-LCR`); the documents a
 * question is asked about are text files in the dataset's zip archive, at
 * `lcr/<document_category>/<document_set_id>/<file>` for each `;`-separated name in the row's
 * `data_source_filenames`. They are joined, in that order, into the row's `documents_text`:
 *
 *   BEGIN DOCUMENT 1:\n<text>\nEND DOCUMENT 1 \n\n BEGIN DOCUMENT 2: ...
 *
 * Sample: `{id: question_id, prompts: [{documents_text, question}], label: answer, metadata: {language:
 * "en", document_category, document_set_id, data_source_filenames, input_tokens}}`, as upstream.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { type DataloaderContext, DataLoadError, type Sample, SeenIds, sha256File } from "@yardstick/core";
import { parse } from "csv-parse";
import { z } from "zod";
import { type HubFilesDataloader, hubRepoId, parseLoaderOptions, type SnapshotSettings, snapshotFiles, snapshotStatus } from "./hub-snapshot.js";
import { assertReadableFile } from "./read-rows.js";
import { readZipEntries } from "./zip-entries.js";

export const SEAHELM_AA_LCR_ID = "seahelm-aa-lcr";

export const seahelmAaLcrOptionsSchema = z.object({
  repo: hubRepoId.default("ArtificialAnalysis/AA-LCR"),
  /** The questions: a CSV file in the repo (the test split). */
  rows: z.string().min(1).default("AA-LCR_Dataset.csv"),
  /** The documents: a zip archive in the repo. */
  documents: z.string().min(1).default("extracted_text/AA-LCR_extracted-text.zip"),
  /** A folder holding the dataset's files, instead of the Hugging Face cache's snapshot. */
  dir: z.string().min(1).optional(),
  revision: z.string().min(1).optional(),
  limit: z.int().positive().optional(),
});

type AaLcrOptions = z.output<typeof seahelmAaLcrOptionsSchema>;

const parseOptions = (options: Record<string, unknown>): AaLcrOptions => parseLoaderOptions(SEAHELM_AA_LCR_ID, seahelmAaLcrOptionsSchema, options);

const text = z.string().min(1);
const rowSchema = z.looseObject({
  question_id: text,
  question: text,
  answer: z.string(),
  document_category: text,
  document_set_id: text,
  data_source_filenames: text,
  input_tokens: z.string().optional(),
});
type AaLcrRow = z.output<typeof rowSchema> & { line: number };

/** The archive's folder of document sets. */
const DOCUMENTS_ROOT = "lcr/";

/** The questions and the archive (downloaded into the hub cache when missing), and the commit they are from. */
async function dataFiles(o: AaLcrOptions, ctx: DataloaderContext, settings: SnapshotSettings): Promise<{ rows: string; zip: string; commit: string | undefined }> {
  const { files, commit } = await snapshotFiles(o, [o.rows, o.documents], ctx, settings);
  const out = { rows: files[0]!, zip: files[1]!, commit };
  await assertReadableFile(out.rows);
  await assertReadableFile(out.zip);
  return out;
}

/** The question rows (up to `limit`), checked, with their CSV line. */
async function readQuestions(file: string, limit: number | undefined, signal?: AbortSignal): Promise<AaLcrRow[]> {
  const out: AaLcrRow[] = [];
  const parser = createReadStream(file).pipe(parse({ columns: true, bom: true, info: true, skip_empty_lines: true }));
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      signal?.throwIfAborted();
      if (limit !== undefined && out.length >= limit) break;
      const parsed = rowSchema.safeParse(record);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new DataLoadError(`bad AA-LCR row: column ${issue.path.join(".") || "?"}: ${issue.message}`, { file, line: info.lines });
      }
      out.push({ ...parsed.data, line: info.lines });
    }
  } catch (cause) {
    if (cause instanceof DataLoadError || signal?.aborted) throw cause;
    throw new DataLoadError(`cannot read the AA-LCR questions: ${(cause as Error).message}`, { file, cause });
  } finally {
    parser.destroy();
  }
  return out;
}

/** The archive paths a row's documents are at (relative to `lcr/`), in the row's order. */
const documentPaths = (row: AaLcrRow): string[] =>
  row.data_source_filenames.split(";").map((name) => `${row.document_category}/${row.document_set_id}/${name}`);

// The archive may spell a name decomposed (NFD) where the CSV has it composed (NFC): both sides are
// compared in NFC, as upstream does.
const nfc = (s: string): string => s.normalize("NFC");

/** Documents as Python's text mode reads them: UTF-8, with `\r\n` and `\r` read as `\n`. */
const documentText = (bytes: Buffer): string => bytes.toString("utf8").replace(/\r\n?/g, "\n");

function toSample(row: AaLcrRow, documents: Map<string, string>, files: { rows: string; zip: string }): Sample {
  const parts = documentPaths(row).map((p, i) => {
    const doc = documents.get(nfc(p));
    if (doc === undefined) {
      throw new DataLoadError(`question ${row.question_id} names the document ${p}, which the archive ${files.zip} does not hold (looked for ${DOCUMENTS_ROOT}${p})`, {
        file: files.rows,
        line: row.line,
      });
    }
    return `BEGIN DOCUMENT ${i + 1}:\n${doc}\nEND DOCUMENT ${i + 1}`;
  });
  const metadata: Record<string, unknown> = {
    language: "en",
    document_category: row.document_category,
    document_set_id: row.document_set_id,
    data_source_filenames: row.data_source_filenames,
  };
  // The dataset viewer reads the column as an integer; keep that type.
  if (row.input_tokens !== undefined) metadata.input_tokens = /^\d+$/.test(row.input_tokens) ? Number(row.input_tokens) : row.input_tokens;
  const prompts = [{ documents_text: parts.join("\n\n"), question: row.question }];
  return { id: row.question_id, prompts, label: row.answer, metadata, raw: { id: row.question_id, prompts, label: row.answer, metadata } };
}

export function createSeahelmAaLcrDataloader(settings: SnapshotSettings = {}): HubFilesDataloader {
  return {
    specVersion: "v1",
    id: SEAHELM_AA_LCR_ID,
    async *load(options, ctx = {}) {
      const o = parseOptions(options);
      const files = await dataFiles(o, ctx, settings);
      const questions = await readQuestions(files.rows, o.limit, ctx.signal);
      // Only the documents the selected questions name are inflated.
      const wanted = new Set(questions.flatMap((q) => documentPaths(q).map(nfc)));
      const entries = await readZipEntries(
        files.zip,
        (name) => {
          if (!name.startsWith(DOCUMENTS_ROOT)) return undefined;
          const key = nfc(name.slice(DOCUMENTS_ROOT.length));
          return wanted.has(key) ? key : undefined;
        },
        ctx.signal,
      );
      const documents = new Map([...entries].map(([k, bytes]) => [k, documentText(bytes)]));
      const seen = new SeenIds();
      for (const q of questions) {
        const first = seen.firstSeen(q.question_id);
        if (first !== undefined) throw new DataLoadError(`duplicate question_id "${q.question_id}" (first seen on line ${first})`, { file: files.rows, line: q.line });
        seen.add(q.question_id, q.line);
        yield toSample(q, documents, files);
      }
    },
    /** `sha256:` over the hashes of the questions file and the archive (a change to either is a new fingerprint), after `hf:<repo>@<commit>:` when they came from the Hub. */
    async fingerprint(options, ctx = {}) {
      const o = parseOptions(options);
      const files = await dataFiles(o, ctx, settings);
      const both = `${await sha256File(files.rows, ctx.signal)}\n${await sha256File(files.zip, ctx.signal)}`;
      const hash = `sha256:${createHash("sha256").update(both).digest("hex")}`;
      return files.commit === undefined ? hash : `hf:${o.repo}@${files.commit}:${hash}`;
    },
    checkOptions: (options) => void parseOptions(options),
    hubDataStatus: async (options) => {
      const o = parseOptions(options);
      return snapshotStatus(o, [o.rows, o.documents], settings);
    },
  };
}
