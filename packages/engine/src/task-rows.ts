import { IdIndex, PackedIds, type Sample } from "@yardstick/core";
import type { SampleRecord } from "@yardstick/run-format";
import type { KeptJudgement } from "./judgement-records.js";
import type { TurnState } from "./response-records.js";

/**
 * What scoring holds of a task's samples, as columns rather than an object per sample: a run of a
 * million samples then costs a few pointers and ~20 bytes of packed columns per sample (objects
 * cost 50–150 bytes each). `Sample` objects are made on demand (`sampleAt`), and their `raw` row only when read.
 */
export class TaskRows {
  /** Sample ids, packed as they are added. */
  private readonly ids = new PackedIds();
  /** Dataset position of each row (the sample record's `index`). */
  private indexes = new Uint32Array(1024);
  readonly labels: unknown[] = [];
  /** Metadata of the rows that have any. */
  private readonly metadata = new Map<number, Record<string, unknown>>();
  /** Which of id/label/metadata the row itself has (bits 1, 2, 4), so `raw` can be rebuilt. */
  private rawKeys = new Uint8Array(1024);
  private count = 0;
  private compacted = false;
  /** Rows with other members than id/label/metadata keep them here (by row). */
  private readonly rawOther = new Map<number, Record<string, unknown>>();
  /** Row by sample id (a Map and its key strings cost ~70 bytes an id; this ~12), until `forgetIds`. */
  private rowOf: IdIndex | undefined = new IdIndex((row, id) => this.ids.matches(row, id));
  /** The final answer of each row: the text alone for the common single-turn answer. */
  readonly answers: (string | TurnState | TurnState[] | undefined)[] = [];
  /** Judged tasks only: the judge and label records of each row that has any, in the order read. */
  judgements: Map<number, KeptJudgement[]> | undefined;

  get length(): number {
    return this.count;
  }

  idAt(row: number): string {
    return this.ids.at(row);
  }

  indexAt(row: number): number {
    return this.indexes[row]!;
  }

  private metadataAt(row: number): Record<string, unknown> | undefined {
    return this.metadata.get(row);
  }

  /**
   * Ends adding rows. Every column is already packed as rows are added (ids in blocks, positions and
   * raw-key bits in typed arrays, metadata by the rows that have any), so a million samples cost
   * ~40 bytes each while the sample records are read, which is where scoring used to peak.
   */
  compact(): void {
    this.compacted = true;
  }

  /** Adds a sample record; false when the sample is already there (a resumed run wrote it twice). */
  add(rec: SampleRecord, intern: (s: string) => string): boolean {
    if (this.compacted) throw new Error("TaskRows: rows cannot be added after compact()");
    if (!this.rowOf) throw new Error("TaskRows: rows cannot be added after forgetIds()");
    if (this.rowOf.get(rec.sample) !== undefined) return false;
    const row = this.count++;
    this.ids.push(rec.sample);
    this.rowOf.add(row, rec.sample);
    if (row === this.indexes.length) {
      this.indexes = grown(this.indexes, new Uint32Array(2 * row));
      this.rawKeys = grown(this.rawKeys, new Uint8Array(2 * row));
    }
    this.indexes[row] = rec.index;
    const { id, label: rawLabel, metadata: rawMetadata, ...other } = rec.raw;
    const label = rec.labelInRaw ? rawLabel : rec.label;
    this.labels.push(typeof label === "string" ? intern(label) : label);
    const metadata = rec.metadataInRaw ? (rawMetadata as Record<string, unknown> | undefined) : rec.metadata;
    if (metadata !== undefined) this.metadata.set(row, metadata);
    let keys = 0;
    if ("id" in rec.raw) keys |= 1;
    if ("label" in rec.raw) keys |= 2;
    if ("metadata" in rec.raw) keys |= 4;
    // A row whose id, label or metadata differ from the sample's, or with other members, keeps its own copy.
    const sameId = id === undefined || id === rec.sample;
    const sameLabel = rawLabel === undefined || rec.labelInRaw === true;
    const sameMetadata = rawMetadata === undefined || rec.metadataInRaw === true;
    if (!sameId || !sameLabel || !sameMetadata) {
      keys |= 8;
      this.rawOther.set(row, rec.raw);
    } else if (Object.keys(other).length > 0) {
      this.rawOther.set(row, other);
    }
    this.rawKeys[row] = keys;
    this.answers.push(undefined);
    return true;
  }

  /** Drops the id → row index once answers are attached. */
  forgetIds(): void {
    this.rowOf = undefined;
  }

  /** The row of a sample id, or undefined. */
  rowOfSample(id: string): number | undefined {
    return this.rowOf?.get(id);
  }

  /** Row numbers in dataset order. */
  datasetOrder(): Uint32Array {
    const order = new Uint32Array(this.length);
    for (let k = 0; k < order.length; k++) order[k] = k;
    const indexes = this.indexes;
    return order.sort((a, b) => indexes[a]! - indexes[b]!);
  }

  /** The sample of a row, as scoring and metrics see it (no prompt variables). */
  sampleAt(row: number): Sample {
    const label = this.labels[row];
    const metadata = this.metadataAt(row);
    const sample: Sample = { id: this.idAt(row), prompts: NO_PROMPTS, raw: this.rawAt(row) };
    if (label !== undefined) sample.label = label;
    if (metadata !== undefined) sample.metadata = metadata;
    return sample;
  }

  /** The stored row (without its prompt variables), rebuilt from the columns. */
  rawAt(row: number): Record<string, unknown> {
    const keys = this.rawKeys[row]!;
    const other = this.rawOther.get(row);
    if (keys & 8) return other!;
    const raw: Record<string, unknown> = {};
    if (keys & 1) raw.id = this.idAt(row);
    if (keys & 2) raw.label = this.labels[row];
    if (keys & 4) raw.metadata = this.metadataAt(row);
    return other ? Object.assign(raw, other) : raw;
  }
}

const NO_PROMPTS: Record<string, unknown>[] = [];

/** `into` (a larger typed array) with `from`'s values at its start. */
function grown<T extends Uint32Array | Uint8Array>(from: T, into: T): T {
  into.set(from);
  return into;
}

/**
 * The final state of a row: its last turn's answer, or the first failed turn's error; undefined
 * while a turn is still missing (a stopped run).
 */
export function finalTurn(stored: string | TurnState | TurnState[] | undefined, turnsPerSample: number): TurnState | undefined {
  if (stored === undefined) return undefined;
  if (typeof stored === "string") return turnsPerSample === 1 ? { text: stored } : undefined;
  if (!Array.isArray(stored)) return turnsPerSample === 1 || stored.error ? stored : undefined;
  for (let i = 0; i < turnsPerSample; i++) {
    const t = stored[i];
    if (!t) return undefined;
    if (t.error) return t;
  }
  return stored[turnsPerSample - 1];
}
