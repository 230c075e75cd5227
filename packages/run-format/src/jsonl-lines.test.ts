import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type JsonlLine, readJsonlLines } from "./jsonl-lines.js";

async function readAll(path: string): Promise<JsonlLine[]> {
  const out: JsonlLine[] = [];
  for await (const batch of readJsonlLines(path)) out.push(...batch);
  return out;
}

describe("readJsonlLines", () => {
  it("gives every non-blank line with its number: CRLF, blank lines, a last line without newline, lines and characters across chunks", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-jsonl-"));
    const long = `{"text":"${"é漢".repeat(30_000)}"}`; // ~150 KB: spans several 32 KB chunks, multi-byte characters cut between them
    const path = join(dir, "a.jsonl");
    writeFileSync(path, `{"a":1}\r\n\n  \n${long}\n{"b":2}`);
    expect(await readAll(path)).toEqual([
      { text: '{"a":1}', line: 1 },
      { text: long, line: 4 },
      { text: '{"b":2}', line: 5 },
    ]);
    const empty = join(dir, "empty.jsonl");
    writeFileSync(empty, "");
    expect(await readAll(empty)).toEqual([]);
  });

  it("lets timers and signals run during a long read (the chunks are read synchronously)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-jsonl-"));
    const path = join(dir, "big.jsonl");
    writeFileSync(path, `${'{"text":"0123456789012345678901234567890123456789"}\n'.repeat(400_000)}`); // ~20 MB
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    let lines = 0;
    try {
      for await (const batch of readJsonlLines(path)) lines += batch.length;
    } finally {
      clearInterval(ticker);
    }
    expect(lines).toBe(400_000);
    expect(turns).toBeGreaterThanOrEqual(3);
  });

  it("reports a missing file as the reader's error", async () => {
    await expect(readAll(join(tmpdir(), "ys-no-such-file.jsonl"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
