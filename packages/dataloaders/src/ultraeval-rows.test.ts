import { describe, expect, it } from "vitest";
import { parseUltraEvalRow } from "./ultraeval-rows.js";

const where = { file: "rows.jsonl", line: 3 };

describe("parseUltraEvalRow", () => {
  it("keeps target_scores in file order, integer-like keys included", () => {
    const row = parseUltraEvalRow('{"question": "q", "target_scores": {"4": 0, "3": 0, "10": 1, "x": 0, "01": 0}}', where);
    expect(row.targetScores).toEqual([
      ["4", 0],
      ["3", 0],
      ["10", 1],
      ["x", 0],
      ["01", 0],
    ]);
    const words = parseUltraEvalRow('{"target_scores": {"b": 1, "a": 0, "b ": 0}}', where);
    expect(words.targetScores.map(([k]) => k)).toEqual(["b", "a", "b "]);
  });

  it("takes the other row shapes the schema allows (lists in passage and question, no target_scores)", () => {
    expect(parseUltraEvalRow('{"passage": ["a", ["b"]], "question": ["n", "p"], "answer": ["x"]}', where).targetScores).toEqual([]);
  });

  it("explains a row the schema refuses, naming file, line and key", () => {
    expect(() => parseUltraEvalRow('{"target_scores": {"a": "1"}}', where)).toThrow(/rows\.jsonl:3: not an UltraEval row: target_scores\.a: /);
    expect(() => parseUltraEvalRow('{"question": 5}', where)).toThrow(/rows\.jsonl:3: not an UltraEval row: question: /);
    expect(() => parseUltraEvalRow("[1]", where)).toThrow(/rows\.jsonl:3: not an UltraEval row/);
  });
});
