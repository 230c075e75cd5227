/**
 * Small data for every task-language pair of a SEA-HELM suite, written where each pair reads it: a
 * JSONL file at the config's local path, or parquet files for the Hugging Face stand-in
 * (`startHubServer({ parquet })`) for a Hub dataset. A row is SEA-HELM's shape (`id`, `prompts`,
 * `label`, `metadata`) with the prompt fields the task's templates name and what its metric family
 * needs (a label set, references, IFEval instructions, judge criteria, LINDSEA phenomena).
 *
 * Every row carries its gold answer as a marker in its first prompt field, so a dev-server policy
 * can answer it (`goldOf`): the tests check the pipeline, not the model.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { TaskSpec } from "@yardstick/core";
import { parquetWriteBuffer } from "hyparquet-writer";

/** Rows per split: enough for `--limit 2` and a few-shot example. */
export const ROWS_PER_SPLIT = 3;

const GOLD = /⟦gold:([^⟧]*)⟧/;
/** The answer (answer tag and gold) a row's prompt carries, or undefined (judge prompts, later turns). */
export function goldOf(text: string): string | undefined {
  return GOLD.exec(text)?.[1];
}

/** `{name}` fields of the task's prompt templates, without the ones the prompt builder fills itself. */
function templateKeys(task: TaskSpec): string[] {
  const text = JSON.stringify(task.prompt.options ?? {});
  const keys = new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
  for (const own of ["answer_tag", "label"]) keys.delete(own);
  return [...keys];
}

/** The task's answer tag (e.g. "Jawaban:"), "" when it has none. */
function answerTag(task: TaskSpec): string {
  return /"answerTag":"([^"]*)"/.exec(JSON.stringify(task.prompt.options ?? {}))?.[1] ?? "";
}

/**
 * Prompt fields of one turn, each carrying the answer marker (tag and gold): tasks that share a
 * dataset split (the two pragmatic tasks) each show the model different fields of the same row.
 */
function promptFields(task: TaskSpec, i: number, gold: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const tag = answerTag(task);
  for (const k of templateKeys(task)) fields[k] = `${k} ${task.language} ${i} ⟦gold:${tag ? `${tag} ` : ""}${gold}⟧`;
  return fields;
}

const CLASS_LABELS = ["A", "B", "C"];
const PHENOMENA = ["word_order", "argument_structure"];

/** IFEval instruction kwargs: every key upstream's rows have, null when the instruction does not use it. */
const IFEVAL_KWARG_KEYS = ["num_words", "relation", "first_word", "keywords", "forbidden_words", "end_phrase"];
function ifevalKwargs(set: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(IFEVAL_KWARG_KEYS.map((k) => [k, set[k] ?? null]));
}

/** First word and an answer starting with it, per language. */
const IFEVAL_GREETINGS: Record<string, [string, string]> = {
  id: ["Halo", "Halo semua, apa kabar? Semoga hari kalian menyenangkan dan penuh semangat."],
  vi: ["Xin", "Xin chào mọi người, hôm nay trời đẹp và chúng tôi rất vui được gặp các bạn."],
  th: ["สวัสดี", "สวัสดี ครับ วันนี้ อากาศ ดี มาก และ ทุกคน มี ความสุข กับ การ ทำงาน"],
  ta: ["வணக்கம்", "வணக்கம் நண்பர்களே, இன்று வானிலை மிகவும் நன்றாக இருக்கிறது, நாங்கள் மகிழ்ச்சியாக இருக்கிறோம்."],
  tl: ["Kumusta", "Kumusta kayong lahat? Sana ay masaya at maganda ang araw ninyo ngayon."],
  ms: ["Selamat", "Selamat pagi semua, saya harap kamu semua sihat dan gembira pada hari yang indah ini."],
  my: ["မင်္ဂလာပါ", "မင်္ဂလာပါ ခင်ဗျာ ဒီနေ့ ရာသီဥတု အရမ်း ကောင်းပါတယ် ကျွန်တော်တို့ ပျော်ရွှင်ပါတယ်"],
};

/** One SEA-HELM row for `task`, by its metric family. */
export function suiteRow(task: TaskSpec, i: number): Record<string, unknown> {
  const metric = task.metrics[0]!.id;
  const language = task.language;
  const base = { id: `${task.name}-${language}-${i}`, metadata: { language } };
  switch (metric) {
    case "seahelm-translation":
    case "seahelm-summarization":
    case "seahelm-qa": {
      const reference = `jawaban rujukan ${i}`;
      return { ...base, prompts: [promptFields(task, i, reference)], label: reference };
    }
    case "seahelm-minimal-pairs":
    case "seahelm-pragmatic": {
      const label = CLASS_LABELS[i % 2]!;
      return {
        ...base,
        prompts: [promptFields(task, i, label)],
        label,
        metadata: { language, linguistic_phenomenon: PHENOMENA[i % 2]! },
      };
    }
    case "ifeval": {
      // The marker is an answer that starts with the asked word, in the task's language (IFEval checks both).
      const greeting = IFEVAL_GREETINGS[language];
      if (!greeting) throw new Error(`${task.key}: no IFEval answer written for language ${language}`);
      const [word, answer] = greeting;
      return {
        ...base,
        prompts: [{ text: `Write one sentence. Start it with the word '${word}'. ⟦gold:${answer}⟧` }],
        label: "",
        metadata: { language, category: "startend", subcategory: "startend:first_word" },
        kwargs: [ifevalKwargs({ first_word: word })],
      };
    }
    case "seahelm-mt-bench-judge":
      return {
        ...base,
        prompts: [{ text: `Beri tiga tips memasak ${i}. ⟦gold:Tiga tips.⟧` }, { text: "Sekarang persingkat." }],
        criteria: [
          { criterion: "Gives three tips", turn: 0 },
          { criterion: "Is short", turn: 1 },
        ],
        metadata: { language, category: "writing" },
      };
    case "seahelm-lindsea-judge":
      return {
        ...base,
        prompts: [{ text: `Buat kalimat pasif ${i}. ⟦gold:Buku itu dibaca oleh saya.⟧` }],
        criteria: [
          { criterion: "The output is one sentence", severity: "generic" },
          { criterion: "Uses a passive verb", severity: "high" },
        ],
        metadata: { language, category: "passive" },
      };
    case "seahelm-criteria-judge":
      return {
        ...base,
        prompts: [{ text: `Tanong ${i}. ⟦gold:Sumagot nang magalang.⟧` }],
        label: "Sumagot nang magalang.",
        criteria: [{ criterion: "Shows respect" }, { criterion: "Offers an option" }],
        metadata: { language, category: "family" },
      };
    default: {
      // Classification (F1Acc and the like): a label from a small set, the model's answer after the tag.
      const label = CLASS_LABELS[i % CLASS_LABELS.length]!;
      return { ...base, prompts: [promptFields(task, i, label)], label };
    }
  }
}

/** Rows of one split of one dataset, keyed like `startHubServer`'s `parquet` option. */
export type HubParquet = Record<string, Record<string, Record<string, Uint8Array[]>>>;

/** Columns from rows that share their keys (a key missing from a row is null). */
function toParquet(rows: Record<string, unknown>[]): Uint8Array {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: names.map((name) => {
        const data = rows.map((r) => r[name] ?? null);
        return typeof data.find((v) => v !== null) === "string" ? { name, data, type: "STRING" as const } : { name, data };
      }),
    }),
  );
}

/** Merges prompt fields of tasks that share a dataset split (thai_exam's five, the two pragmatic tasks). */
function mergeRows(into: Record<string, unknown>[], rows: Record<string, unknown>[]): void {
  rows.forEach((row, i) => {
    const have = into[i];
    if (!have) {
      into.push(row);
      return;
    }
    const prompts = (have.prompts as Record<string, unknown>[]).map((p, t) => ({ ...p, ...((row.prompts as Record<string, unknown>[])[t] ?? {}), ...p }));
    into[i] = { ...row, ...have, prompts };
  });
}

export interface SuiteData {
  /** For `startHubServer({ parquet })`. */
  parquet: HubParquet;
  /** Local files written, absolute paths. */
  localFiles: string[];
  /** Hub datasets served, `repo` → configs. */
  hubRepos: string[];
}

/** Writes the data of every task: local JSONL files in place, Hub splits as parquet to serve. */
export function writeSuiteData(tasks: readonly TaskSpec[]): SuiteData {
  const hubRows = new Map<string, Record<string, unknown>[]>();
  const local = new Map<string, Record<string, unknown>[]>();
  for (const task of tasks) {
    const rows = Array.from({ length: ROWS_PER_SPLIT }, (_, i) => suiteRow(task, i));
    for (const ref of [task.data, task.examples]) {
      if (!ref) continue;
      const o = ref.options as Record<string, string>;
      if (ref.id === "huggingface") {
        const key = JSON.stringify([o.repo, o.name ?? "default", o.split]);
        mergeRows(hubRows.get(key) ?? hubRows.set(key, []).get(key)!, rows);
      } else if (ref.id === "seahelm-local") {
        mergeRows(local.get(o.path!) ?? local.set(o.path!, []).get(o.path!)!, rows);
      } else {
        throw new Error(`${task.key}: no test data writer for dataloader ${ref.id}`);
      }
    }
  }
  const parquet: HubParquet = {};
  for (const [key, rows] of hubRows) {
    const [repo, name, split] = JSON.parse(key) as [string, string, string];
    ((parquet[repo] ??= {})[name] ??= {})[split] = [toParquet(rows)];
  }
  for (const [file, rows] of local) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  }
  return { parquet, localFiles: [...local.keys()], hubRepos: Object.keys(parquet) };
}
