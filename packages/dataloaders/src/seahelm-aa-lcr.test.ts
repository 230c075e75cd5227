/** `seahelm-aa-lcr`: AA-LCR questions (CSV) with their documents joined from the dataset's zip. */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { DataLoadError, type Sample } from "@yardstick/core";
import { testDataloader } from "@yardstick/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createSeahelmAaLcrDataloader } from "./seahelm-aa-lcr.js";

const FIXTURE = fileURLToPath(new URL("./__fixtures__/aa-lcr/", import.meta.url));
const tmp = mkdtempSync(path.join(tmpdir(), "ys-aa-lcr-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function copyFolder(name: string): string {
  const dir = path.join(tmp, name);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

async function load(options: Record<string, unknown>, hubCacheDir?: string): Promise<Sample[]> {
  const out: Sample[] = [];
  for await (const s of createSeahelmAaLcrDataloader({ offline: true, ...(hubCacheDir ? { hubCacheDir } : {}) }).load(options, {})) out.push(s);
  return out;
}

// The two documents of the fixture's set, as the loader must read them (the first has \r\n line ends).
const REPORT_2023 = "Annual report 2023.\nRevenue: 120 million.\nHeadcount: 450.\n";
const REPORT_2024 = "Báo cáo thường niên 2024.\nDoanh thu: 150 triệu.\nNhân sự: 480.";

describe("seahelm-aa-lcr", () => {
  it("joins a question's documents in the row's order into documents_text, as upstream", async () => {
    const samples = await load({ dir: copyFolder("shape") });
    expect(samples.map((s) => s.id)).toEqual(["1", "2", "3"]);
    const [first, second, third] = samples as [Sample, Sample, Sample];
    expect(first.prompts).toEqual([
      {
        documents_text: `BEGIN DOCUMENT 1:\n${REPORT_2023}\nEND DOCUMENT 1\n\nBEGIN DOCUMENT 2:\n${REPORT_2024}\nEND DOCUMENT 2`,
        question: "By how much did revenue grow from 2023 to 2024?",
      },
    ]);
    // The CSV names the second file in NFC; the archive holds it in NFD.
    expect(second.prompts[0]!.documents_text).toBe(`BEGIN DOCUMENT 1:\n${REPORT_2024}\nEND DOCUMENT 1\n\nBEGIN DOCUMENT 2:\n${REPORT_2023}\nEND DOCUMENT 2`);
    expect(second.prompts[0]!.question).toBe('What was the headcount change, as "before, after"?');
    expect(second.label).toBe("450, 480");
    expect(third.prompts[0]!.question).toBe("What was the 2023 revenue?\nAnswer in millions.");
    expect(first.metadata).toEqual({
      language: "en",
      document_category: "Company Reports",
      document_set_id: "set-01",
      data_source_filenames: "annual_report_2023.txt;Báo cáo thường niên.txt",
      input_tokens: 41,
    });
    expect(first.raw).toMatchObject({ id: "1", label: "30 million", prompts: first.prompts });
  });

  it("reads the snapshot in the Hugging Face cache, and stops at limit", async () => {
    const cache = path.join(tmp, "cache");
    const repoDir = path.join(cache, "datasets--ArtificialAnalysis--AA-LCR");
    mkdirSync(path.join(repoDir, "refs"), { recursive: true });
    writeFileSync(path.join(repoDir, "refs", "main"), "abc123");
    cpSync(FIXTURE, path.join(repoDir, "snapshots", "abc123"), { recursive: true });
    expect((await load({ limit: 1 }, cache)).map((s) => s.id)).toEqual(["1"]);
  });

  it("names the row and the archive when a document is missing, and refuses a file that is not a zip", async () => {
    const dir = copyFolder("missing-doc");
    const csv = path.join(dir, "AA-LCR_Dataset.csv");
    writeFileSync(
      csv,
      "document_category,document_set_id,question_id,question,answer,data_source_filenames,input_tokens\nCompany Reports,set-01,7,Q?,A,annual_report_2023.txt;minutes.txt,5\n",
    );
    await expect(load({ dir })).rejects.toThrow(`${csv}:2: question 7 names the document Company Reports/set-01/minutes.txt, which the archive`);
    writeFileSync(csv, "document_category,document_set_id,question_id,question,answer,data_source_filenames\nCompany Reports,set-01,8,,A,annual_report_2023.txt\n");
    await expect(load({ dir })).rejects.toThrow(`${csv}:2: bad AA-LCR row: column question`);
    const notZip = copyFolder("not-zip");
    writeFileSync(path.join(notZip, "extracted_text", "AA-LCR_extracted-text.zip"), "not a zip");
    await expect(load({ dir: notZip })).rejects.toThrow(DataLoadError);
    await expect(load({ dir: notZip })).rejects.toThrow(/cannot open the zip archive/);
  });
});

const conformanceDir = copyFolder("conformance");
// offline: the data is in a folder, and an option set with no copy must fail without asking huggingface.co.
testDataloader("seahelm-aa-lcr", () => createSeahelmAaLcrDataloader({ hubCacheDir: path.join(tmp, "no-cache"), offline: true }), {
  cases: [
    {
      name: "questions and documents from a folder",
      options: { dir: conformanceDir },
      expectedCount: 3,
      changeData: async () =>
        void writeFileSync(path.join(conformanceDir, "AA-LCR_Dataset.csv"), "Company Reports,set-01,4,Q4?,A4,annual_report_2023.txt,,20\r\n", { flag: "a" }),
    },
  ],
  invalidOptions: [{ limit: 0 }, { rows: 3 }, { dir: path.join(tmp, "nowhere") }, {}],
});
