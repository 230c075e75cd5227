/** The `ifeval` row format: google/IFEval rows in SEA-HELM's shape, as its IFEvalDataloader maps them. */
import { DataLoadError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { toSeaHelmShape } from "./hub-row-formats.js";

const where = { file: "google/IFEval", line: 0 };
const kwargs = (k: Record<string, unknown>) => ({ letter: null, let_frequency: null, let_relation: null, keywords: null, ...k });

describe("ifeval row format", () => {
  it("keeps the key as id, the prompt as text, the instruction ids in the metadata and the kwargs list", () => {
    const row = { key: 7, prompt: "Say hi.", instruction_id_list: ["keywords:existence"], kwargs: [kwargs({ keywords: ["hi"] })] };
    expect(toSeaHelmShape(row, "ifeval", where)).toEqual({
      id: 7,
      prompts: [{ text: "Say hi." }],
      metadata: { language: "en", instruction_id_list: ["keywords:existence"] },
      kwargs: [kwargs({ keywords: ["hi"] })],
    });
  });

  it("sets row 1174's missing letter relation to at least, as upstream corrects it", () => {
    const row = { key: 1174, prompt: "p", instruction_id_list: ["keywords:letter_frequency"], kwargs: [kwargs({ letter: "q", let_frequency: 5 })] };
    expect(toSeaHelmShape(row, "ifeval", where).kwargs).toEqual([kwargs({ letter: "q", let_frequency: 5, let_relation: "at least" })]);
    const other = { ...row, key: 1175 };
    expect(toSeaHelmShape(other, "ifeval", where).kwargs).toEqual(row.kwargs);
  });

  it("names a missing column", () => {
    expect(() => toSeaHelmShape({ key: 1, prompt: "p", kwargs: [] }, "ifeval", where)).toThrow(DataLoadError);
    expect(() => toSeaHelmShape({ key: 1, prompt: "p", kwargs: [] }, "ifeval", where)).toThrow(/no column "instruction_id_list"/);
  });
});
