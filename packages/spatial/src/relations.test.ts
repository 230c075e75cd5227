import { describe, expect, it } from "vitest";
import { directionPhrase } from "./descriptions.js";
import { getRelationships } from "./relations.js";
import type { Shape } from "./shape.js";

const S = (kind: Shape["kind"], size: Shape["size"], x: number, y: number): Shape => ({ kind, size, color: "Red", center: [x, y] });

describe("edge-based relation rule", () => {
  it("relates by edges in all four directions", () => {
    const rels = getRelationships([S("Square", "Small", 0, 0), S("Square", "Small", -10, 10), S("Square", "Small", 10, -10)]);
    expect(rels[0]).toEqual({ Left: [1], Right: [2], Above: [1], Below: [2] });
    expect(directionPhrase(rels[0]!, 1)).toBe("to the above left of");
    expect(directionPhrase(rels[0]!, 2)).toBe("to the below right of");
  });

  it("gives no relation on an axis when one extent contains the other", () => {
    // Large circle x in [-4, 4]; small square at x=2 spans [1, 3], inside it.
    const rels = getRelationships([S("Circle", "Large", 0, 0), S("Square", "Small", 2, 20)]);
    expect(rels[0]).toEqual({ Left: [], Right: [], Above: [1], Below: [] });
    // Enclosure exception: seen from the small square the circle strictly encloses it horizontally.
    expect(rels[1]).toEqual({ Left: [], Right: [], Above: [], Below: [0] });
    expect(directionPhrase(rels[0]!, 1)).toBe("above");
    expect(directionPhrase(rels[1]!, 0)).toBe("below");
  });

  it("is asymmetric when one edge ties", () => {
    // Large square x in [-2, 2]; small square at x=1 spans [0, 2]: right edges tie.
    const rels = getRelationships([S("Square", "Small", 1, 10), S("Square", "Large", 0, 0)]);
    expect(rels[0]!.Left).toEqual([1]); // the large one is Left of the small one...
    expect(rels[1]!.Right).toEqual([]); // ...but the small one is not Right of the large one
    expect(rels[1]!.Left).toEqual([]);
    expect(directionPhrase(rels[0]!, 1)).toBe("to the below left of");
    expect(directionPhrase(rels[1]!, 0)).toBe("above");
  });

  it("uses strict comparisons (equal extents are unrelated)", () => {
    const rels = getRelationships([S("Square", "Small", 0, 0), S("Square", "Small", 0, 10)]);
    expect(rels[0]).toEqual({ Left: [], Right: [], Above: [1], Below: [] });
  });

  it("sorts nearest first and keeps canvas order on ties", () => {
    const shapes = [
      S("Square", "Small", 0, 0),
      S("Square", "Small", -20, 5),
      S("Square", "Small", -5, 20),
      S("Circle", "Small", -5, -20), // same left edge as shape 2 -> keeps canvas order
      S("Square", "Small", 9, -9),
      S("Square", "Small", 4, 9),
    ];
    const r = getRelationships(shapes)[0]!;
    expect(r.Left).toEqual([2, 3, 1]);
    expect(r.Right).toEqual([5, 4]);
    expect(r.Above).toEqual([1, 5, 2]);
    expect(r.Below).toEqual([4, 3]);
  });
});
