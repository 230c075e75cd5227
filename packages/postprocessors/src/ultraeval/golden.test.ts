import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { builtinPostprocessors } from "../index.js";
import { ULTRAEVAL_TEXT_POSTS, type UltraevalTextPostName } from "./functions.js";
import { generalTorchPpl, generalTorchPplNorm } from "./general-torch.js";

type Pair = { in: string; out: string | null };
type Golden = Record<string, Pair[] | { in: unknown; out: unknown }>;
const golden = JSON.parse(readFileSync(new URL("../__fixtures__/golden_postprocess.json", import.meta.url), "utf8")) as Golden;

describe("UltraEval postprocessors against upstream golden outputs", () => {
  it("covers all 23 registry entries", () => {
    expect(Object.keys(golden)).toHaveLength(23);
    for (const name of Object.keys(golden)) expect(builtinPostprocessors[`ultraeval:${name}`], name).toBeDefined();
  });

  for (const [name, entry] of Object.entries(golden)) {
    if (!Array.isArray(entry)) continue;
    it(name, () => {
      const fn = ULTRAEVAL_TEXT_POSTS[name as UltraevalTextPostName];
      const plugin = builtinPostprocessors[`ultraeval:${name}`]!;
      for (const { in: input, out } of entry) {
        expect(fn(input), `${name}(${JSON.stringify(input)})`).toBe(out);
        expect(plugin.process(input, {})).toBe(out ?? "");
      }
    });
  }

  it("general_torch passes text through", () => {
    const g = golden["general_torch"] as { in: string[]; out: string[] };
    expect(g.in.map((t) => builtinPostprocessors["ultraeval:general_torch"]!.process(t, {}))).toEqual(g.out);
  });

  it("general_torch_ppl and general_torch_ppl_norm", () => {
    const ppl = golden["general_torch_ppl"] as { in: number[][][]; out: number[][] };
    const norm = golden["general_torch_ppl_norm"] as { in: number[][][]; out: number[][] };
    expect(generalTorchPpl(ppl.in)).toEqual(ppl.out);
    expect(generalTorchPplNorm(norm.in)).toEqual(norm.out);
    // The text plugins take and give JSON, one instance or a whole batch.
    const plugin = builtinPostprocessors["ultraeval:general_torch_ppl_norm"]!;
    expect(JSON.parse(plugin.process(JSON.stringify(norm.in), {}))).toEqual(norm.out);
    expect(JSON.parse(plugin.process(JSON.stringify(norm.in[0]), {}))).toEqual(norm.out[0]);
  });
});

const extra = JSON.parse(readFileSync(new URL("../__fixtures__/extra_postprocess_cases.json", import.meta.url), "utf8")) as Record<string, Pair[]>;

describe("UltraEval postprocessors on tricky inputs (expected values from the Python code, see generate-extra-cases.py)", () => {
  for (const [name, cases] of Object.entries(extra)) {
    it(name, () => {
      const fn = ULTRAEVAL_TEXT_POSTS[name as UltraevalTextPostName];
      for (const { in: input, out } of cases) expect(fn(input), `${name}(${JSON.stringify(input)})`).toBe(out);
    });
  }
});
