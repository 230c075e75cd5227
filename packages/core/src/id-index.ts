/**
 * Row numbers by sample id, for a million ids without a Map entry and a kept string per id: an
 * open-addressing table (linear probing) of row numbers and a 32-bit hash per row. The ids
 * themselves stay with the caller, who says whether a row holds a given id (`rowHas`), so they can
 * be packed into one string once every row is added. About 12 bytes per id against ~70 for a
 * `Map<string, number>` and its keys.
 */
export class IdIndex {
  /** Row + 1 in each slot; 0 is an empty slot. Its size is a power of two, at least twice the rows. */
  private slots = new Int32Array(1024);
  private hashes = new Uint32Array(512);
  private count = 0;

  constructor(private readonly rowHas: (row: number, id: string) => boolean) {}

  get size(): number {
    return this.count;
  }

  /** The row of `id`, or undefined. */
  get(id: string): number | undefined {
    const h = hashId(id);
    const mask = this.slots.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const entry = this.slots[i]!;
      if (entry === 0) return undefined;
      const row = entry - 1;
      if (this.hashes[row] === h && this.rowHas(row, id)) return row;
    }
  }

  /** Records that `row` (the next row: 0, 1, 2, ...) holds `id`, which must not be there yet. */
  add(row: number, id: string): void {
    if (row !== this.count) throw new Error(`IdIndex: rows must be added in order (expected ${this.count}, got ${row})`);
    if (row >= this.hashes.length) {
      const grown = new Uint32Array(this.hashes.length * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    if (2 * (row + 1) > this.slots.length) this.rehash(this.slots.length * 2);
    const h = hashId(id);
    this.hashes[row] = h;
    this.count++;
    this.place(row, h);
  }

  private place(row: number, h: number): void {
    const mask = this.slots.length - 1;
    let i = h & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = row + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let row = 0; row < this.count; row++) this.place(row, this.hashes[row]!);
  }
}

/** FNV-1a over the UTF-16 code units, then a final mix so linear probing sees well-spread low bits. */
function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** Ids per packed block: a block is one flat string, small enough for V8's young generation. */
const BLOCK = 4096;

/**
 * An append-only list of id strings packed into blocks of 4,096 (one string each) with end offsets:
 * a million short ids cost ~11 MB instead of ~40 MB as separate strings in an array. Reading an id
 * back (`at`) makes a new string; `matches` compares in place.
 */
export class PackedIds {
  private readonly blocks: string[] = [];
  /** Offset of each block's first character in the whole sequence. */
  private readonly blockStarts: number[] = [];
  /** Ids of the block being filled. */
  private pending: string[] = [];
  private pendingStart = 0;
  /** End offset (exclusive) of each id in the whole sequence. */
  private ends = new Uint32Array(1024);
  private count = 0;
  private chars = 0;

  get length(): number {
    return this.count;
  }

  push(id: string): void {
    if (this.count === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.chars += id.length;
    this.ends[this.count++] = this.chars;
    this.pending.push(id);
    if (this.pending.length === BLOCK) {
      this.blocks.push(this.pending.join(""));
      this.blockStarts.push(this.pendingStart);
      this.pending = [];
      this.pendingStart = this.chars;
    }
  }

  at(row: number): string {
    const block = Math.floor(row / BLOCK);
    if (block >= this.blocks.length) return this.pending[row - block * BLOCK]!;
    const base = this.blockStarts[block]!;
    return this.blocks[block]!.slice((row === 0 ? 0 : this.ends[row - 1]!) - base, this.ends[row]! - base);
  }

  /** Whether the id at `row` is `id`, without making a string. */
  matches(row: number, id: string): boolean {
    const block = Math.floor(row / BLOCK);
    if (block >= this.blocks.length) return this.pending[row - block * BLOCK] === id;
    const start = row === 0 ? 0 : this.ends[row - 1]!;
    return this.ends[row]! - start === id.length && this.blocks[block]!.startsWith(id, start - this.blockStarts[block]!);
  }
}

/**
 * Numbers each distinct id 0, 1, 2, ... in the order first given, in ~30 bytes an id (packed ids and
 * their index): for counting or tagging a million ids without a Map entry and a kept string each.
 */
export class IdNumbers {
  private readonly ids = new PackedIds();
  private readonly index = new IdIndex((row, id) => this.ids.matches(row, id));

  get size(): number {
    return this.ids.length;
  }

  /** The number of `id`, or undefined when it has none yet. */
  get(id: string): number | undefined {
    return this.index.get(id);
  }

  /** The number of `id`, given the next one when it is new (then it equals the `size` before the call). */
  number(id: string): number {
    const known = this.index.get(id);
    if (known !== undefined) return known;
    const row = this.ids.length;
    this.ids.push(id);
    this.index.add(row, id);
    return row;
  }

  /** The id numbered `row`. */
  at(row: number): string {
    return this.ids.at(row);
  }
}

/**
 * The ids a loader has seen and where each was first seen (a line or row number), for the duplicate
 * check over every row of a dataset: a `Map<string, number>` keeps every id string alive while the
 * run answers, ~70 bytes an id (70 MB at a million rows); numbered, about 30.
 */
export class SeenIds {
  private readonly ids = new IdNumbers();
  private places = new Float64Array(1024);

  get size(): number {
    return this.ids.size;
  }

  /** Where `id` was first seen, or undefined when it was not. */
  firstSeen(id: string): number | undefined {
    const row = this.ids.get(id);
    return row === undefined ? undefined : this.places[row];
  }

  /** Records `id`, first seen at `place`; `id` must not be there yet (check with `firstSeen`). */
  add(id: string, place: number): void {
    const row = this.ids.number(id);
    if (row === this.places.length) {
      const grown = new Float64Array(2 * row);
      grown.set(this.places);
      this.places = grown;
    }
    this.places[row] = place;
  }
}
