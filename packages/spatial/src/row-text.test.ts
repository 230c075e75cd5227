import { describe, expect, it } from "vitest";
import { generateCanvas, optionsFingerprint, resolveOptions } from "./generate.js";
import { lineText, rowLines } from "./row-text.js";
import { itemsOf } from "./rows.js";
import { seahelmRow, ultraevalRow } from "./write-dataset.js";

describe("rowLines", () => {
  it("gives the bytes of JSON.stringify(seahelmRow/ultraevalRow) for every item", () => {
    for (const mode of ["fixed", "compat"] as const)
      for (const shapes of [1, 3, 7])
        for (const images of [false, true])
          for (const fewshot of [false, true]) {
            const options = resolveOptions({ shapes, count: 6, seed: 'q"\\é', mode });
            const fp = optionsFingerprint(options);
            for (let i = 0; i < options.count; i++) {
              const record = generateCanvas(options, i);
              // Generated text never needs escaping; check the escaping path on one canvas anyway.
              if (i === 1)
                for (const key of ["full", "existence_tracking"])
                  if (record.descriptions[key] !== undefined) record.descriptions[key] += ' "q" \\ \n \ud83d\ude00 \ud800 é';
              const image = `data:"${record.name}`;
              const items = itemsOf(record, options, fp, images, fewshot);
              for (const format of ["seahelm", "ultraeval"] as const) {
                const expected = items.map((it) => {
                  const img = it.descriptionType === "image" ? image : undefined;
                  return JSON.stringify(format === "seahelm" ? seahelmRow(it, options, img) : ultraevalRow(it, img));
                });
                expect(rowLines(record, options, fp, format, images, fewshot, () => image).map(lineText)).toEqual(expected);
              }
            }
          }
  });
});
