/**
 * Per-sample scores of a task as one column per score name (a Float64Array and a presence mask)
 * instead of an object per sample: at a million samples that is 9 bytes a score instead of ~50.
 * Rows are rebuilt as objects only when written out.
 */
export class ScoreColumns {
  private readonly columns = new Map<string, { values: Float64Array; present: Uint8Array }>();
  constructor(readonly length: number) {}

  /** Score names in the order they were first set. */
  get keys(): string[] {
    return [...this.columns.keys()];
  }

  has(key: string): boolean {
    return this.columns.has(key);
  }

  set(row: number, key: string, value: number): void {
    let column = this.columns.get(key);
    if (!column) {
      column = { values: new Float64Array(this.length), present: new Uint8Array(this.length) };
      this.columns.set(key, column);
    }
    column.values[row] = value;
    column.present[row] = 1;
  }

  /** Takes a whole column (one value per row) as it is, every row present. */
  adopt(key: string, values: Float64Array): void {
    this.columns.set(key, { values, present: new Uint8Array(this.length).fill(1) });
  }

  /** The finite values of one score, in row order (typed: a million of them are 8 MB, no slack); read only. */
  finiteValues(key: string): Float64Array {
    const column = this.columns.get(key);
    if (!column) return new Float64Array(0);
    const finite = (i: number) => column.present[i] === 1 && Number.isFinite(column.values[i]!);
    let count = 0;
    for (let i = 0; i < this.length; i++) if (finite(i)) count++;
    // Every row has a finite value: the column itself (read only), no copy.
    if (count === this.length) return column.values;
    const out = new Float64Array(count);
    for (let i = 0, k = 0; i < this.length; i++) if (finite(i)) out[k++] = column.values[i]!;
    return out;
  }

  /** The scores of one row, keys in first-set order (what a score record holds). */
  rowAt(row: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [key, column] of this.columns) if (column.present[row]) out[key] = column.values[row]!;
    return out;
  }

  /** The first score name set on any row. */
  firstKey(): string | undefined {
    return this.columns.keys().next().value;
  }
}
