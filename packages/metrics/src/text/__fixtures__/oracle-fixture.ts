/** Test helper: loads the sacrebleu/NLTK oracle fixture (see __fixtures__/generate-oracle-fixture.py). */
import { readFileSync } from "node:fs";

export interface OraclePair {
  id: string;
  lang: string;
  hyp: string;
  refs: string[];
  expected: Record<string, number | string[] | number[]>;
}

export interface OracleFixture {
  sacrebleu_version: string;
  pairs: OraclePair[];
  corpus: Record<string, number | { score: number; counts: number[]; totals: number[]; precisions: number[]; bp: number; sys_len: number; ref_len: number }>;
}

export function loadOracleFixture(): OracleFixture {
  return JSON.parse(readFileSync(new URL("./multilingual-pairs.json", import.meta.url), "utf8")) as OracleFixture;
}

export function fixtureText(name: string): string {
  return readFileSync(new URL(`./${name}`, import.meta.url), "utf8");
}
