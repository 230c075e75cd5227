import { createRng } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { coordinatesDescription, fullDescription, header, partialDescription } from "./descriptions.js";
import { COMPAT_ORDINALS, ordinal } from "./ordinals.js";
import { getRelationships } from "./relations.js";
import type { Shape } from "./shape.js";
import { countTask } from "./tasks/count.js";
import { coordinateTask } from "./tasks/coordinate.js";
import { existenceQuestion, existenceTask } from "./tasks/existence.js";
import { existenceTrackingTask } from "./tasks/existence-tracking.js";
import { shuffleTrackingTask } from "./tasks/shuffle-tracking.js";
import { transitivityTask } from "./tasks/transitivity.js";
import type { TaskContext } from "./tasks/types.js";

const shapes: Shape[] = [
  { kind: "Square", color: "Red", size: "Small", center: [16, 17] },
  { kind: "Circle", color: "Blue", size: "Large", center: [-10, 0] },
  { kind: "Triangle", color: "Green", size: "Large", center: [5, -20] },
];
const rels = getRelationships(shapes);
const ctx = (mode: "fixed" | "compat", seed = "t"): TaskContext => ({ shapes, rels, rng: createRng(seed), mode, canvasName: "canvas_3_0" });

describe("description templates", () => {
  it("header singular and plural", () => {
    expect(header(1)).toBe("There is 1 shape in a canvas. ");
    expect(header(3)).toBe("There are 3 shapes in a canvas. ");
  });
  it("coordinates: radius for circles, side length otherwise", () => {
    expect(coordinatesDescription(shapes)).toBe(
      "There are 3 shapes in a canvas. There is a small red square at (16, 17) with side length 2. " +
        "There is a large blue circle at (-10, 0) with radius 4. There is a large green triangle at (5, -20) with side length 4. ",
    );
  });
  it("full has n(n-1) relations, partial n(n-1)/2", () => {
    const full = fullDescription(shapes, rels);
    const partial = partialDescription(shapes, rels);
    expect(full.match(/ this /g)?.length).toBe(6);
    expect(partial.match(/ this /g)?.length).toBe(3);
    expect(full).toContain("A large blue circle is to the below left of this small red square. ");
    expect(partial.endsWith("There is a large green triangle in the canvas. ")).toBe(true);
  });
});

describe("question templates", () => {
  it("existence question forms", () => {
    expect(existenceQuestion({ kind: undefined, size: undefined, color: "Red" })).toBe("Is there a shape that is red?");
    expect(existenceQuestion({ kind: undefined, size: "Large", color: undefined })).toBe("Is there a large shape?");
    expect(existenceQuestion({ kind: undefined, size: "Small", color: "Blue" })).toBe("Is there a small blue shape?");
    expect(existenceQuestion({ kind: "Circle", size: undefined, color: undefined })).toBe("Is there a circle?");
    expect(existenceQuestion({ kind: "Square", size: "Large", color: "Green" })).toBe("Is there a large green square?");
  });
  it("existence: first answer is the requested one, answers are right", () => {
    for (const want of ["Yes", "No"] as const) {
      const out = existenceTask.generate(ctx("fixed", want), want)!;
      expect(out.questions).toHaveLength(3);
      expect(out.questions[0]![1]).toBe(want);
      expect(new Set(out.questions.map((q) => q[0])).size).toBe(3);
    }
    const all = existenceTask.generate(ctx("fixed"), undefined)!;
    expect(all.questions).toHaveLength(3);
  });
  it("count questions and numeric answers", () => {
    const zero = countTask.generate(ctx("fixed"), 0)!;
    expect(zero.questions[0]![1]).toBe(0);
    const nz = countTask.generate(ctx("fixed"), "non-zero")!;
    expect(nz.questions[0]![1]).not.toBe(0);
    for (const [q] of [...zero.questions, ...nz.questions]) expect(q).toMatch(/^How many (?:(?:small|large) )?(?:(?:red|blue|yellow|green) )?(?:squares|circles|triangles|shapes) are there\?$/);
  });
  it("coordinate answers: trailing space in compat only", () => {
    const single: Shape[] = [
      { kind: "Square", color: "Red", size: "Small", center: [0, 0] },
      { kind: "Square", color: "Blue", size: "Small", center: [0, 10] },
    ];
    const c = { shapes: single, rels: getRelationships(single), rng: createRng("c"), canvasName: "x" };
    expect(coordinateTask.generate({ ...c, mode: "compat" }, undefined)!.questions).toEqual([
      ["Where is the small blue square relative to the small red square?", "Above "],
    ]);
    expect(coordinateTask.generate({ ...c, mode: "fixed" }, undefined)!.questions[0]![1]).toBe("Above");
  });
  it("transitivity sentences and question", () => {
    for (const mode of ["compat", "fixed"] as const) {
      const out = transitivityTask.generate(ctx(mode), undefined)!;
      // Tasks return final text: upstream's trailing space in compat, none in fixed.
      expect(out.description!.endsWith(" ")).toBe(mode === "compat");
      const text = mode === "compat" ? out.description : `${out.description} `;
      expect(text).toMatch(/^There are 3 shapes in a canvas\. There is a [a-z ]+ in the canvas\. /);
      expect(text).toMatch(/(?:To the (?:left|right) of the [a-z ]+ is a [a-z ]+\. |(?:Above|Below) the [a-z ]+ is a [a-z ]+\. )+$/);
      expect(out.questions[0]![0]).toMatch(/^Where is the [a-z ]+ relative to the [a-z ]+\?$/);
      expect(["Left", "Right", "Above", "Below"]).toContain(out.questions[0]![1]);
    }
  });
  it("existence tracking sentences; the question keeps upstream's trailing space in compat", () => {
    const out = existenceTrackingTask.generate(ctx("compat"), "No")!;
    expect(out.description).toMatch(/^(?:(?:A [a-z ]+ is added to the canvas\. )|(?:The [a-z ]+ is removed from the canvas\. )){3}$/);
    expect(out.questions[0]![1]).toBe("No");
    expect(out.questions[1]![1]).toBe("Yes");
    expect(out.questions[0]![0]).toMatch(/^Is there a [a-z ]+ in the canvas\? $/);
  });
  it("shuffle tracking line, swaps and ordinal questions", () => {
    const out = shuffleTrackingTask.generate(ctx("compat"), undefined)!;
    expect(out.description).toMatch(
      /^There are 3 shapes in a canvas\. From (?:left to right|right to left|top to bottom|bottom to top), the shapes are a [a-z ]+, a [a-z ]+, and a [a-z ]+\. (?:The [a-z ]+ and the [a-z ]+ swap positions\. ){3}$/,
    );
    expect(new Set(out.questions.map((q) => q[1])).size).toBe(3);
    for (const [q] of out.questions) expect(q).toMatch(/^What shape is (?:first|second|third) from the (?:left|right|top|bottom)\?$/);
  });
  it("ordinals: upstream's table misspells eighth; fixed spells it and goes past nine", () => {
    expect(COMPAT_ORDINALS[7]).toBe("eigth");
    expect(ordinal(8)).toBe("eighth");
    expect(ordinal(10)).toBe("tenth");
    expect(ordinal(12)).toBe("twelfth");
    expect(ordinal(21)).toBe("twenty-first");
    expect(ordinal(24)).toBe("twenty-fourth");
  });
});
