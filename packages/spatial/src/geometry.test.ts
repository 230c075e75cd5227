import { describe, expect, it } from "vitest";
import { polygonsIntersect, shapePolygon, shapesIntersect } from "./geometry.js";
import { bbox, inBounds, type Shape, shapeLabel } from "./shape.js";

const S = (kind: Shape["kind"], size: Shape["size"], x: number, y: number, color: Shape["color"] = "Red"): Shape => ({
  kind,
  size,
  color,
  center: [x, y],
});

describe("shape geometry", () => {
  it("has upstream's bounding boxes", () => {
    expect(bbox(S("Circle", "Small", 0, 0))).toEqual({ left: -1, right: 1, bottom: -1, top: 1 });
    expect(bbox(S("Circle", "Large", 3, -2))).toEqual({ left: -1, right: 7, bottom: -6, top: 2 });
    expect(bbox(S("Square", "Small", 5, 5))).toEqual({ left: 4, right: 6, bottom: 4, top: 6 });
    expect(bbox(S("Square", "Large", 0, 0))).toEqual({ left: -2, right: 2, bottom: -2, top: 2 });
    const t = bbox(S("Triangle", "Large", 0, 0));
    expect(t.left).toBe(-2);
    expect(t.right).toBe(2);
    expect(t.top).toBeCloseTo(4 / Math.sqrt(3), 12);
    expect(t.bottom).toBeCloseTo(-4 / (2 * Math.sqrt(3)), 12);
    const st = bbox(S("Triangle", "Small", 0, 0));
    expect([st.left, st.right]).toEqual([-1, 1]);
    expect(st.top).toBeCloseTo(2 / Math.sqrt(3), 12);
  });

  it("labels shapes in lowercase size colour kind", () => {
    expect(shapeLabel(S("Circle", "Large", 0, 0, "Blue"))).toBe("large blue circle");
  });

  it("checks bounds on the bounding box", () => {
    expect(inBounds(S("Circle", "Large", 28, -28))).toBe(true);
    expect(inBounds(S("Circle", "Large", 29, 0))).toBe(false);
    expect(inBounds(S("Triangle", "Large", 0, 29))).toBe(true);
    expect(inBounds(S("Triangle", "Large", 0, 30))).toBe(false);
    expect(inBounds(S("Triangle", "Small", 0, 30))).toBe(true);
    expect(inBounds(S("Triangle", "Small", 0, -31))).toBe(true);
    expect(inBounds(S("Square", "Small", -31, 31))).toBe(true);
    expect(inBounds(S("Square", "Small", -32, 0))).toBe(false);
  });

  it("counts touching as intersecting", () => {
    expect(shapesIntersect(S("Square", "Large", 0, 0), S("Square", "Large", 4, 0))).toBe(true);
    expect(shapesIntersect(S("Square", "Large", 0, 0), S("Square", "Large", 5, 0))).toBe(false);
    expect(shapesIntersect(S("Square", "Large", 0, 0), S("Square", "Small", 3, 3))).toBe(true); // corner contact
    expect(shapesIntersect(S("Circle", "Large", 0, 0), S("Circle", "Large", 8, 0))).toBe(true); // tangent 64-gons
    expect(shapesIntersect(S("Circle", "Large", 0, 0), S("Circle", "Large", 9, 0))).toBe(false);
  });

  it("uses the exact shapes, not their boxes", () => {
    // Boxes overlap at the corner, but the circle's 64-gon does not reach the square's corner.
    expect(shapesIntersect(S("Circle", "Large", 0, 0), S("Square", "Small", 5, 5))).toBe(false);
    expect(shapesIntersect(S("Circle", "Large", 0, 0), S("Square", "Small", 4, 4))).toBe(false);
    expect(shapesIntersect(S("Circle", "Large", 0, 0), S("Square", "Small", 3, 3))).toBe(true);
    // A triangle's empty upper corners: boxes overlap, shapes do not.
    expect(shapesIntersect(S("Triangle", "Large", 0, 0), S("Square", "Small", 3, 2))).toBe(false);
    expect(shapesIntersect(S("Triangle", "Large", 0, 0), S("Square", "Small", 2, 0))).toBe(true);
  });
});

describe("intersection shortcuts", () => {
  it("agree with the pure polygon test for every kind, size and integer offset that can touch", () => {
    const kinds = ["Square", "Circle", "Triangle"] as const;
    const sizes = ["Small", "Large"] as const;
    let disagreements = 0;
    for (const ka of kinds)
      for (const sa of sizes)
        for (const kb of kinds)
          for (const sb of sizes)
            for (let dx = -9; dx <= 9; dx++)
              for (let dy = -9; dy <= 9; dy++) {
                const a = S(ka, sa, 0, 0);
                const b = S(kb, sb, dx, dy);
                if (shapesIntersect(a, b) !== polygonsIntersect(shapePolygon(a), shapePolygon(b))) disagreements++;
              }
    expect(disagreements).toBe(0);
  });
});
