/**
 * What SEA-HELM's generated long-context tasks (NIAH, CWE) share: the token measure, the seeds of
 * the samples, local resource files, and the fingerprint of a generator's parameters.
 *
 * Token counts: upstream measures every length with the evaluated model's own Hugging Face
 * tokenizer, so its haystacks are as long as `context_size` in that model's tokens. yardstick has no
 * model tokenizer at hand; it measures with OpenAI's o200k BPE (gpt-tokenizer). The data is the same
 * for every model (and reproducible without downloading a tokenizer), and a `context_size` of 8000 is
 * 8000 o200k tokens, which is a few percent more or less text than upstream gives a given model.
 */
import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import * as path from "node:path";
import { DataLoadError, PythonRandom } from "@yardstick/core";

export const GENERATED_TOKENIZER = "o200k_base";

type O200k = typeof import("gpt-tokenizer/encoding/o200k_base");
let o200k: O200k | undefined;
// Loaded on first use: building the o200k tables takes most of a second, which every CLI start would
// pay while only generated tasks measure tokens.
const tokenizer = (): O200k => {
  o200k ??= createRequire(import.meta.url)("gpt-tokenizer/cjs/encoding/o200k_base") as O200k;
  return o200k;
};

export const tokenCount = (text: string): number => tokenizer().countTokens(text);
export const tokenIds = (text: string): number[] => tokenizer().encode(text);
export const decodeTokens = (ids: number[]): string => tokenizer().decode(ids);

/** Upstream's per-sample seeds: `Random(random_seed).sample(range(2**31 - 1), n)` (a limit takes a prefix). */
export const sampleSeeds = (randomSeed: number, n: number): number[] => new PythonRandom(randomSeed).sampleRange(2 ** 31 - 1, n);

export const resolveFrom = (file: string, baseDir: string | undefined): string => (path.isAbsolute(file) ? file : path.resolve(baseDir ?? ".", file));

export async function readTextFile(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (cause) {
    throw new DataLoadError(`cannot read the ${what} ${file}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`, { file, cause });
  }
}

/** The `*.txt` files of a folder, sorted by name (upstream globs them; we fix the order). */
export async function textFilesIn(dir: string, what: string): Promise<string[]> {
  let names: string[];
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error("not a folder");
    names = await readdir(dir);
  } catch (cause) {
    throw new DataLoadError(`cannot read the ${what} folder ${dir}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`, { file: dir, cause });
  }
  const files = names.filter((n) => n.endsWith(".txt")).sort();
  if (files.length === 0) throw new DataLoadError(`the ${what} folder ${dir} holds no .txt file`, { file: dir });
  return files.map((n) => path.join(dir, n));
}

/**
 * `sha256:` over the generator's name and version, its parameters (key-sorted JSON) and the bytes of
 * each resource file it reads: another version, parameter or file is another data fingerprint.
 */
export async function generatorFingerprint(generator: string, version: number, params: Record<string, unknown>, files: string[]): Promise<string> {
  const h = createHash("sha256");
  h.update(`${generator}@${version}\n${JSON.stringify(params, Object.keys(params).sort())}\n`);
  for (const f of files) {
    h.update(`${path.basename(f)}\n`);
    try {
      h.update(await readFile(f));
    } catch (cause) {
      throw new DataLoadError(`cannot read ${f}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`, { file: f, cause });
    }
  }
  return `sha256:${h.digest("hex")}`;
}

/** Python's `str.strip(chars)`. */
export function stripChars(s: string, chars: string): string {
  const set = new Set(chars);
  const cps = [...s];
  let a = 0;
  let b = cps.length;
  while (a < b && set.has(cps[a]!)) a++;
  while (b > a && set.has(cps[b - 1]!)) b--;
  return cps.slice(a, b).join("");
}

/** Python's `sorted(set(xs))` for strings: unique, by code point (JS's default sort compares UTF-16 units). */
export function sortedUnique(xs: readonly string[]): string[] {
  return [...new Set(xs)].sort((x, y) => {
    const a = [...x];
    const b = [...y];
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = a[i]!.codePointAt(0)! - b[i]!.codePointAt(0)!;
      if (d !== 0) return d;
    }
    return a.length - b.length;
  });
}
