/**
 * SEA-HELM's image tasks read from the Hub's parquet files: MathVision and BabyVision configs (as
 * upstream ships them) become `huggingface` data refs with their split and row format; parquet
 * image structs ({ bytes, path }) become data URIs, and the seahelm-chat prompt builder puts them
 * into the user turn as `image_url` parts.
 */
import { fileURLToPath } from "node:url";
import { buildSeahelmChat, seahelmDialect } from "@yardstick/config";
import type { ChatMessage, Sample, TaskSpec } from "@yardstick/core";
import { type HubServer, startHubServer } from "@yardstick/testing";
import { parquetWriteBuffer } from "hyparquet-writer";
import { afterEach, describe, expect, it } from "vitest";
import { loadHuggingFace } from "./huggingface.js";

const TASKS = fileURLToPath(new URL("./__fixtures__/seahelm-vision/seahelm_tasks/", import.meta.url));
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 4, 5]);
const FAST = { backoffBaseMs: 1, backoffMaxMs: 5, retries: 1 };

const servers: HubServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const IMAGE_STRUCT = (name: string) => [
  { name, repetition_type: "OPTIONAL", num_children: 2 },
  { name: "bytes", type: "BYTE_ARRAY", repetition_type: "OPTIONAL" },
  { name: "path", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" },
] as const;
const STRING = (name: string) => ({ name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" }) as const;
const INT = (name: string) => ({ name, type: "INT64", repetition_type: "OPTIONAL" }) as const;
const STRING_LIST = (name: string) =>
  [
    { name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
    { name: "list", repetition_type: "REPEATED", num_children: 1 },
    { name: "element", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" },
  ] as const;

/** MathVision's row shape (MathLLMs/MathVision): id, question, options, decoded_image, answer, subject, level. */
function mathVisionParquet(): Uint8Array {
  const schema = [
    { name: "root", num_children: 7 },
    STRING("id"),
    STRING("question"),
    ...STRING_LIST("options"),
    ...IMAGE_STRUCT("decoded_image"),
    STRING("answer"),
    STRING("subject"),
    INT("level"),
  ];
  const columnData = [
    { name: "id", data: ["1", "2"] },
    { name: "question", data: ["Which shape is red?", "How many sides?"] },
    { name: "options", data: [["circle", "square"], []] },
    { name: "decoded_image", data: [{ bytes: PNG, path: "1.png" }, { bytes: JPEG, path: null }] },
    { name: "answer", data: ["A", "4"] },
    { name: "subject", data: ["geometry", "counting"] },
    { name: "level", data: [1n, 2n] },
  ];
  return new Uint8Array(parquetWriteBuffer({ schema: schema as never, columnData }));
}

/** BabyVision's row shape (UnipatAI/BabyVision): taskId, question, ansType, options, choiceAns, blankAns, image, type, subtype. */
function babyVisionParquet(): Uint8Array {
  const schema = [
    { name: "root", num_children: 9 },
    STRING("taskId"),
    STRING("question"),
    STRING("ansType"),
    ...STRING_LIST("options"),
    INT("choiceAns"),
    STRING("blankAns"),
    ...IMAGE_STRUCT("image"),
    STRING("type"),
    STRING("subtype"),
  ];
  const columnData = [
    { name: "taskId", data: ["t1", "t2"] },
    { name: "question", data: ["Pick the odd one.", "Count the dots."] },
    { name: "ansType", data: ["choice", "blank"] },
    { name: "options", data: [["cat", "dog", "car"], []] },
    { name: "choiceAns", data: [2n, null] },
    { name: "blankAns", data: [null, "7"] },
    { name: "image", data: [{ bytes: PNG, path: "a.png" }, { bytes: null, path: "https://example.org/dots.png" }] },
    { name: "type", data: ["visual", "visual"] },
    { name: "subtype", data: ["odd", "count"] },
  ];
  return new Uint8Array(parquetWriteBuffer({ schema: schema as never, columnData }));
}

async function specs(): Promise<Map<string, TaskSpec>> {
  return new Map((await seahelmDialect.load(TASKS)).map((s) => [s.key, s]));
}

async function samplesOf(spec: TaskSpec, endpoint: string): Promise<Sample[]> {
  const out: Sample[] = [];
  for await (const s of loadHuggingFace({ ...spec.data.options, endpoint }, {}, FAST)) out.push(s);
  return out;
}

const userTurn = (messages: ChatMessage[] | string): ChatMessage => {
  if (typeof messages === "string") throw new Error("expected chat messages");
  return messages[messages.length - 1]!;
};

describe("image tasks from the Hub's parquet files", () => {
  it("MathVision: the configs read test / testmini of the default config, and the image becomes an image part", async () => {
    const all = await specs();
    const full = all.get("mathvision/en")!;
    const mini = all.get("mathvision_mini/en")!;
    expect(full.data).toEqual({ id: "huggingface", options: { repo: "MathLLMs/MathVision", split: "test", rowFormat: "mathvision" } });
    expect(mini.data.options).toMatchObject({ split: "testmini", rowFormat: "mathvision" });
    const file = mathVisionParquet();
    const server = await startHubServer({ datasets: {}, parquet: { "MathLLMs/MathVision": { default: { test: [file], testmini: [file] } } } });
    servers.push(server);
    const samples = await samplesOf(mini, server.url);
    expect(samples.map((s) => [s.id, s.label, s.metadata])).toEqual([
      ["1", "A", { language: "en", subject: "geometry", level: 1 }],
      ["2", "4", { language: "en", subject: "counting", level: 2 }],
    ]);
    expect(samples[0]!.prompts).toEqual([{ question: "Which shape is red?", options: "\n(A) circle\n(B) square" }]);
    expect(samples[1]!.prompts).toEqual([{ question: "How many sides?", options: "" }]);
    const pngUri = `data:image/png;base64,${Buffer.from(PNG).toString("base64")}`;
    expect(samples[0]!.raw.images).toEqual([pngUri]);
    expect(samples[1]!.raw.images).toEqual([`data:image/jpeg;base64,${Buffer.from(JPEG).toString("base64")}`]);

    const user = userTurn(buildSeahelmChat({ sample: samples[0]!, examples: [], turn: 1, previousResponses: [] } as never, mini.prompt.options ?? {}));
    expect(user.role).toBe("user");
    const parts = user.content as { type: string; image_url?: { url: string }; text?: string }[];
    // Text first, then the image, as SEA-HELM's image dataloader builds the user turn.
    expect(parts.map((p) => p.type)).toEqual(["text", "image_url"]);
    expect(parts[1]!.image_url!.url).toBe(pngUri);
    expect(parts.find((p) => p.type === "text")!.text).toContain("Which shape is red?\n(A) circle\n(B) square");
  });

  it("BabyVision: split train, choice and blank answers, an image given by URL", async () => {
    const spec = (await specs()).get("babyvision/en")!;
    expect(spec.data.options).toMatchObject({ repo: "UnipatAI/BabyVision", split: "train", rowFormat: "babyvision" });
    const server = await startHubServer({ datasets: {}, parquet: { "UnipatAI/BabyVision": { default: { train: [babyVisionParquet()] } } } });
    servers.push(server);
    const samples = await samplesOf(spec, server.url);
    expect(samples.map((s) => [s.id, s.label, s.prompts])).toEqual([
      ["t1", "C", [{ question: "Pick the odd one.", choices: "\nA: cat\nB: dog\nC: car" }]],
      ["t2", "7", [{ question: "Count the dots.", choices: "" }]],
    ]);
    expect(samples[1]!.raw.images).toEqual(["https://example.org/dots.png"]);
    expect(samples[0]!.metadata).toEqual({ language: "en", type: "visual", subtype: "odd" });
  });

  it("an image cell with neither bytes nor a URL is an error naming the row and column", async () => {
    const spec = (await specs()).get("babyvision/en")!;
    const schema = [
      { name: "root", num_children: 9 },
      STRING("taskId"),
      STRING("question"),
      STRING("ansType"),
      ...STRING_LIST("options"),
      INT("choiceAns"),
      STRING("blankAns"),
      ...IMAGE_STRUCT("image"),
      STRING("type"),
      STRING("subtype"),
    ];
    const file = new Uint8Array(
      parquetWriteBuffer({
        schema: schema as never,
        columnData: [
          { name: "taskId", data: ["t1"] },
          { name: "question", data: ["q"] },
          { name: "ansType", data: ["blank"] },
          { name: "options", data: [[]] },
          { name: "choiceAns", data: [null] },
          { name: "blankAns", data: ["1"] },
          { name: "image", data: [{ bytes: null, path: "/home/someone/img.png" }] },
          { name: "type", data: ["t"] },
          { name: "subtype", data: ["s"] },
        ],
      }),
    );
    const server = await startHubServer({ datasets: {}, parquet: { "UnipatAI/BabyVision": { default: { train: [file] } } } });
    servers.push(server);
    await expect(samplesOf(spec, server.url)).rejects.toThrow(/default\/train\/0000\.parquet:0: column "image": the image has no bytes and its path "\/home\/someone\/img.png" is not a URL/);
  });
});
