import { describe, expect, it } from "vitest";
import { IdIndex, IdNumbers, PackedIds, SeenIds } from "./id-index.js";

describe("IdIndex", () => {
  it("finds every id added, across table growth, and nothing else", () => {
    const ids: string[] = [];
    const index = new IdIndex((row, id) => ids[row] === id);
    for (let row = 0; row < 20_000; row++) {
      // Ids of one length differing in one character, and some non-ASCII ones.
      const id = row % 7 === 0 ? `ид-${row}` : `s${row}`;
      expect(index.get(id)).toBeUndefined();
      ids.push(id);
      index.add(row, id);
    }
    expect(index.size).toBe(20_000);
    for (let row = 0; row < 20_000; row++) expect(index.get(ids[row]!)).toBe(row);
    for (const missing of ["", "s", "s20000", "s-1", "ид-1", "S1"]) expect(index.get(missing)).toBeUndefined();
  });

  it("asks the caller whether a row holds the id, so rows with equal hashes stay apart", () => {
    // The same id under two rows cannot happen in use; here it shows the lookup goes by rowHas.
    const ids = ["a", "b"];
    const index = new IdIndex((row, id) => ids[row] === id);
    index.add(0, "a");
    index.add(1, "b");
    ids[0] = "changed";
    expect(index.get("a")).toBeUndefined();
    expect(index.get("b")).toBe(1);
  });

  it("refuses rows out of order", () => {
    const index = new IdIndex(() => false);
    expect(() => index.add(1, "x")).toThrow(/in order/);
  });
});

describe("PackedIds", () => {
  it("gives back every id, in blocks and in the block being filled, and compares in place", () => {
    const packed = new PackedIds();
    const ids = Array.from({ length: 10_000 }, (_, i) => (i % 5 === 0 ? `ид-${i}-ü` : i % 3 === 0 ? "" : `sample-${i}`));
    for (const id of ids) packed.push(id);
    expect(packed.length).toBe(10_000);
    ids.forEach((id, row) => {
      expect(packed.at(row)).toBe(id);
      expect(packed.matches(row, id)).toBe(true);
      expect(packed.matches(row, `${id}x`)).toBe(false);
      expect(packed.matches(row, id.slice(0, -1))).toBe(id === "");
    });
  });
});

describe("SeenIds", () => {
  it("tells where each id was first seen, across growth, and nothing for ids not added", () => {
    const seen = new SeenIds();
    for (let line = 1; line <= 10_000; line++) {
      const id = line % 5 === 0 ? `ид-${line}` : `row-${line}`;
      expect(seen.firstSeen(id)).toBeUndefined();
      seen.add(id, line);
    }
    expect(seen.size).toBe(10_000);
    expect(seen.firstSeen("row-1")).toBe(1);
    expect(seen.firstSeen("ид-5")).toBe(5);
    expect(seen.firstSeen("row-9999")).toBe(9999);
    for (const missing of ["", "row-0", "row-10001", "ид-1", "ROW-1"]) expect(seen.firstSeen(missing)).toBeUndefined();
  });

  it("keeps places beyond 32 bits (row numbers of a large split)", () => {
    const seen = new SeenIds();
    seen.add("a", 2 ** 40 + 3);
    expect(seen.firstSeen("a")).toBe(2 ** 40 + 3);
  });
});

describe("IdNumbers", () => {
  it("numbers each distinct id in the order first given, and gives each id back", () => {
    const numbers = new IdNumbers();
    const ids = Array.from({ length: 5_000 }, (_, i) => (i % 3 === 0 ? `ключ-${i}` : `k${i}`));
    for (const [i, id] of ids.entries()) expect(numbers.number(id)).toBe(i);
    for (const [i, id] of ids.entries()) expect(numbers.number(id)).toBe(i);
    expect(numbers.size).toBe(5_000);
    expect(numbers.get("k4999")).toBe(4999);
    expect(numbers.get("k5000")).toBeUndefined();
    expect(numbers.at(3)).toBe("ключ-3");
    expect(numbers.at(4)).toBe("k4");
  });
});
