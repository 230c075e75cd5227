import { describe, expect, it } from "vitest";
import { input } from "./__fixtures__/inputs.js";
import { createSeahelmMathMetric, verifyMath } from "./math.js";
import { canonicalLatex, evaluateExpression } from "./math-expr.js";
import { boxedContents, extractMathAnswer } from "./math-extract.js";

describe("math answer extraction", () => {
  it("prefers the last boxed answer, with nested braces", () => {
    expect(boxedContents("\\boxed{1} then \\boxed{\\frac{1}{2}}")).toEqual(["1", "\\frac{1}{2}"]);
    expect(extractMathAnswer("so we get $x = 3$ and finally \\boxed{\\frac{3}{4}}.")).toBe("\\frac{3}{4}");
  });
  it("falls back to a final-answer phrase, a math span, then the last number", () => {
    expect(extractMathAnswer("The final answer is $12$. I hope")).toBe("12");
    expect(extractMathAnswer("We find $a=2$ and then $\\sqrt{16}$")).toBe("\\sqrt{16}");
    expect(extractMathAnswer("It costs 1,250 dollars, or 3 items")).toBe("3");
    expect(extractMathAnswer("no digits")).toBeUndefined();
  });
});

describe("expression evaluation", () => {
  it("evaluates simple closed forms", () => {
    expect(evaluateExpression(canonicalLatex("\\dfrac{3}{4}"))).toBe(0.75);
    expect(evaluateExpression(canonicalLatex("\\frac12"))).toBe(0.5);
    expect(evaluateExpression(canonicalLatex("2\\sqrt{9}+1"))).toBe(7);
    expect(evaluateExpression(canonicalLatex("1,000"))).toBe(1000);
    expect(evaluateExpression(canonicalLatex("-3/6"))).toBe(-0.5);
    expect(evaluateExpression(canonicalLatex("2^{10}"))).toBe(1024);
    expect(evaluateExpression(canonicalLatex("x+1"))).toBeUndefined();
  });
});

describe("verifyMath", () => {
  it("accepts equivalent numeric forms and rejects different values", () => {
    expect(verifyMath("\\frac{1}{2}", "Thus \\boxed{0.5}")).toBe(true);
    expect(verifyMath("0.5", "Thus \\boxed{\\dfrac{1}{2}}")).toBe(true);
    expect(verifyMath("50", "so the answer is \\boxed{50\\%}")).toBe(true);
    expect(verifyMath("3", "x = 3 so \\boxed{x=3}")).toBe(true);
    expect(verifyMath("(1, 2)", "\\boxed{(1,2)}")).toBe(true);
    expect(verifyMath("(1, 2)", "\\boxed{(2,1)}")).toBe(false);
    expect(verifyMath("\\frac{1}{3}", "\\boxed{0.33}")).toBe(false);
    expect(verifyMath("x^2+1", "\\boxed{x^2 + 1}")).toBe(true);
    expect(verifyMath("5", "I don't know")).toBe(false);
  });
});

describe("seahelm-math", () => {
  it("scores the raw response by default", async () => {
    const metric = createSeahelmMathMetric();
    const r = await metric.compute(
      [
        input("1", "0.5}", "\\frac{1}{2}", { rawResponse: "Hence \\boxed{0.5}" }),
        input("2", "7}", "8", { rawResponse: "Hence \\boxed{7}" }),
      ],
      {},
    );
    expect(r.scores).toEqual({ math_verify_score: 50, normalized_math_verify_score: 50 });
    expect(r.perSample.map((s) => s.scores.normalized_math_verify_score)).toEqual([1, 0]);
  });
});
