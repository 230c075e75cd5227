import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";
import { promptsCommand } from "./prompts-command.js";

// The corpus copy: config.yaml, the 20-row jv data sample and its 5 examples, constants.yaml, and
// chat_templates/base_model.jinja beside seahelm_tasks/.
const CORPUS = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..", "config", "src", "__fixtures__", "seahelm_tasks");
const QA_MC = join(CORPUS, "nlu", "question_answering_mc");

/** qa-mc / jv's prompt_template, as the corpus config spells it. */
const TEMPLATE = {
  preamble:
    'Sampeyan bakal diwenehi paragraf, pitakonan, lan papat pilihan jawaban. Jawaben pitakonan iku miturut paragraf kanthi milih salah siji saka pilihan sing diwenehake.\n\nJawaban mung nganggo format iki:\n"{answer_tag} ANSWER"\nGanti ANSWER karo pilihan sing dipilih. Gunakake mung huruf A, B, C, utawa D kanggo jawabane.',
  task: "Paragraf:\n```\n{text}\n```\nPitakonan: {question}\nA: {choice1}\nB: {choice2}\nC: {choice3}\nD: {choice4}",
  answer: "{answer_tag} {label}",
  tag: "Jawaban:",
};

type Row = { id: number; label: string; prompts: Record<string, string>[] };
const rows = (file: string): Row[] =>
  readFileSync(join(QA_MC, "data", file), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Row);
const DATA = rows("jv_belebele.jsonl");
const EXAMPLES = rows("jv_belebele_examples.jsonl");

/** Python's str.format for these templates (no escaped braces in them); a missing key raises, as in Python. */
function format(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`KeyError: ${key}`);
    return String(values[key]);
  });
}

/**
 * SEA-HELM's conversation for one row (base_dataloader.generate_formatted_conversation): each example
 * as a user turn (task template, with answer_tag) and an assistant turn (answer template over the
 * example's columns and first prompt), then the row's user turn (no answer_tag), and the preamble put
 * before the first content, the whole stripped.
 */
function seahelmConversation(row: Row, examples: Row[]): { role: string; content: string }[] {
  const out: { role: string; content: string }[] = [];
  for (const ex of examples) {
    out.push({ role: "user", content: format(TEMPLATE.task, { ...ex.prompts[0], answer_tag: TEMPLATE.tag }) });
    out.push({ role: "assistant", content: format(TEMPLATE.answer, { ...ex, ...ex.prompts[0], answer_tag: TEMPLATE.tag }) });
  }
  out.push({ role: "user", content: format(TEMPLATE.task, row.prompts[0]!) });
  out[0]!.content = `${format(TEMPLATE.preamble, { answer_tag: TEMPLATE.tag })}\n\n${out[0]!.content}`.trim();
  return out;
}

/** chat_templates/base_model.jinja with add_generation_prompt: BOS (when the tokenizer has one), trimmed contents joined by a blank line, a blank line after. */
function baseModelText(messages: { content: string }[], bos?: string): string {
  return `${bos ?? ""}${messages.map((m) => m.content.trim()).join("\n\n")}\n\n`;
}

interface Line {
  task: string;
  sample: string;
  turn: number;
  request: { kind: string; messages?: { role: string; content: string }[]; prompt?: string; params: Record<string, unknown> };
}

async function prompts(args: string[], cwd = process.cwd()): Promise<{ lines: Line[]; err: string }> {
  const io = captureIO({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-prompts-cache-")) }, cwd);
  const code = await promptsCommand(args, io);
  expect(code, io.err()).toBe(0);
  const lines = io
    .out()
    .trim()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Line);
  return { lines, err: io.err() };
}

const QA_ARGS = [QA_MC, "--tasks", "qa-mc", "--langs", "jv", "--limit", "3"];

describe("yardstick prompts: SEA-HELM's assembly on the corpus samples (qa-mc, jv)", () => {
  // Nothing may reach the network: there is no server, and any fetch would be a bug.
  const fetchCalls: unknown[] = [];
  beforeAll(() => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async (...args: unknown[]) => {
      fetchCalls.push(args);
      throw new Error("yardstick prompts must not send anything");
    });
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });
  afterEach(() => {
    expect(fetchCalls).toEqual([]);
  });

  it("instruct, 0-shot: one user message per sample, preamble first, the seed and max_tokens with it", async () => {
    const { lines } = await prompts(QA_ARGS);
    expect(lines.map((l) => [l.task, l.sample, l.turn])).toEqual(DATA.slice(0, 3).map((r) => ["qa-mc/jv", String(r.id), 1]));
    for (const [i, line] of lines.entries()) {
      expect(line.request).toEqual({ kind: "chat", messages: seahelmConversation(DATA[i]!, []), params: { seed: 1234, maxTokens: 16 } });
    }
    const first = lines[0]!.request.messages![0]!.content;
    expect(first.startsWith('Sampeyan bakal diwenehi paragraf, pitakonan, lan papat pilihan jawaban.')).toBe(true);
    expect(first).toContain('Jawaban mung nganggo format iki:\n"Jawaban: ANSWER"\n');
    expect(first.endsWith("C: Operasi dalan raya\nD: Ilen-ilen dalan raya")).toBe(true);
  });

  it("instruct, k-shot (--num-fewshot 2): the examples as user/assistant turns before the question", async () => {
    const { lines } = await prompts([...QA_ARGS, "--num-fewshot", "2"]);
    expect(lines).toHaveLength(3);
    for (const [i, line] of lines.entries()) {
      const expected = seahelmConversation(DATA[i]!, EXAMPLES.slice(0, 2));
      expect(line.request.messages).toEqual(expected);
      expect(expected.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    }
    expect(lines[0]!.request.messages![1]!.content).toBe(`Jawaban: ${EXAMPLES[0]!.label}`);
  });

  it("base model, text: the base-model template over the 5-shot conversation, stop at a blank line (constants.yaml)", async () => {
    const { lines } = await prompts([...QA_ARGS, "--base-model"]);
    expect(lines).toHaveLength(3);
    for (const [i, line] of lines.entries()) {
      const expected = baseModelText(seahelmConversation(DATA[i]!, EXAMPLES.slice(0, 5)));
      expect(line.request).toEqual({ kind: "completion", prompt: expected, params: { seed: 1234, maxTokens: 16, stop: ["\n\n"], stopAtFirst: "Jawaban:" } });
    }
    expect(lines[0]!.request.prompt!.startsWith("Sampeyan bakal")).toBe(true);
    expect(lines[0]!.request.prompt!.endsWith("D: Ilen-ilen dalan raya\n\n")).toBe(true);
  });

  it("base model, text with a BOS token: the token before the first message only", async () => {
    const { lines } = await prompts([...QA_ARGS, "--base-model", "--bos-token", "<s>"]);
    for (const [i, line] of lines.entries()) {
      expect(line.request.prompt).toBe(baseModelText(seahelmConversation(DATA[i]!, EXAMPLES.slice(0, 5)), "<s>"));
      expect(line.request.prompt!.split("<s>")).toHaveLength(2);
    }
  });

  it("base model, messages (--endpoint chat): the same 5-shot conversation for a server that applies the template", async () => {
    const { lines } = await prompts([...QA_ARGS, "--base-model", "--endpoint", "chat"]);
    for (const [i, line] of lines.entries()) {
      expect(line.request).toEqual({
        kind: "chat",
        messages: seahelmConversation(DATA[i]!, EXAMPLES.slice(0, 5)),
        params: { seed: 1234, maxTokens: 16, stop: ["\n\n"], stopAtFirst: "Jawaban:" },
      });
    }
  });

  it("--seed replaces upstream's 1234 in every request", async () => {
    const { lines } = await prompts([...QA_ARGS, "--seed", "25008113"]);
    expect(lines.map((l) => l.request.params.seed)).toEqual([25008113, 25008113, 25008113]);
  });

  it("refuses base-model flags without --base-model, and an unknown endpoint", async () => {
    for (const args of [
      ["--bos-token", "<s>"],
      ["--endpoint", "chat"],
      ["--base-model", "--endpoint", "responses"],
    ]) {
      const io = captureIO();
      await expect(promptsCommand([...QA_ARGS, ...args], io)).rejects.toThrow(/--bos-token|--endpoint/);
    }
  });
});

describe("the requests a run sends are the ones `prompts` prints", () => {
  let server: DevServer;
  const bodies: Record<string, unknown>[] = [];
  beforeAll(async () => {
    server = await startDevServer({
      port: 0,
      policy: (req) => {
        bodies.push(req.body);
        // A base model's second pass continues after the answer tag.
        if (req.endpoint === "completion") return req.prompt!.endsWith("Jawaban:") ? " A" : "Let me see. Jawaban: A";
        if (req.messages?.at(-1)?.role === "assistant") return " A";
        return req.lastUserText.includes("second question") ? "second answer" : "Jawaban: A";
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const run = async (args: string[], out: string, cwd = process.cwd()): Promise<void> => {
    const io = captureIO({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-prompts-cache-")) }, cwd);
    const all = ["run", ...args, "--model", "openai-compatible:toy", "--base-url", `${server.url}/v1`, "--out", out, "--quiet", "--no-report"];
    expect(await main(all, io), io.err()).toBe(0);
  };
  const stored = (out: string): { sample: string; turn: number; request: Record<string, unknown> }[] =>
    readFileSync(join(out, "responses.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));

  it("instruct: the seed reaches the server, and the stored requests equal the printed ones", async () => {
    bodies.length = 0;
    const out = join(mkdtempSync(join(tmpdir(), "yardstick-prompts-run-")), "run");
    await run([...QA_ARGS, "--num-fewshot", "1"], out);
    expect(bodies).toHaveLength(3);
    expect(bodies.every((b) => b.seed === 1234 && b.max_tokens === 16)).toBe(true);
    const { lines } = await prompts([...QA_ARGS, "--num-fewshot", "1"]);
    const byId = new Map(stored(out).map((r) => [r.sample, r.request]));
    for (const line of lines) expect(byId.get(line.sample)).toEqual(line.request);
  });

  it("base model: two passes, the first with the printed prompt up to the answer tag, the second continuing it", async () => {
    bodies.length = 0;
    const out = join(mkdtempSync(join(tmpdir(), "yardstick-prompts-run-")), "run");
    const args = [...QA_ARGS, "--base-model", "--bos-token", "<s>", "--seed", "7"];
    await run(args, out);
    const { lines } = await prompts(args);
    const printed = lines.map((l) => l.request.prompt!);
    expect(printed.every((p) => p.startsWith("<s>Sampeyan"))).toBe(true);
    const firsts = bodies.filter((b) => printed.includes(b.prompt as string));
    const seconds = bodies.filter((b) => !printed.includes(b.prompt as string));
    expect(firsts).toHaveLength(3);
    expect(seconds).toHaveLength(3);
    for (const b of firsts) expect(b).toMatchObject({ seed: 7, max_tokens: 16, stop: ["Jawaban:"], include_stop_str_in_output: true });
    for (const b of seconds) {
      // The first pass's text, the answer tag put back (the dev server drops stop strings), after the printed prompt.
      expect(printed).toContain((b.prompt as string).slice(0, -"Let me see. Jawaban:".length));
      expect((b.prompt as string).endsWith("\n\nLet me see. Jawaban:")).toBe(true);
      expect(b).toMatchObject({ seed: 7, stop: ["\n\n"] });
      expect(b.max_tokens as number).toBeLessThan(16);
      expect(b.max_tokens as number).toBeGreaterThan(0);
      expect(b).not.toHaveProperty("stopAtFirst");
      expect(b).not.toHaveProperty("include_stop_str_in_output");
    }
    // One stored answer per sample: both passes joined; the stored request is the printed one.
    const records = stored(out) as unknown as { sample: string; request: unknown; choices: { text: string }[] }[];
    expect(records.map((r) => r.choices[0]!.text)).toEqual(["Let me see. Jawaban: A", "Let me see. Jawaban: A", "Let me see. Jawaban: A"]);
    const byId = new Map(records.map((r) => [r.sample, r.request]));
    for (const line of lines) expect(byId.get(line.sample)).toEqual(line.request);
  });

  it("base model behind a chat endpoint: the second pass continues the first as the final assistant message", async () => {
    bodies.length = 0;
    const out = join(mkdtempSync(join(tmpdir(), "yardstick-prompts-run-")), "run");
    await run([...QA_ARGS, "--limit", "1", "--base-model", "--endpoint", "chat"], out);
    expect(bodies).toHaveLength(2);
    const [first, second] = bodies as { messages: { role: string; content: string }[] }[];
    expect(first).toMatchObject({ stop: ["Jawaban:"], include_stop_str_in_output: true });
    expect(second!.messages).toEqual([...first!.messages, { role: "assistant", content: "Jawaban:" }]);
    expect(second).toMatchObject({ stop: ["\n\n"], continue_final_message: true, add_generation_prompt: false });
    expect(stored(out).map((r) => (r as unknown as { choices: { text: string }[] }).choices[0]!.text)).toEqual(["Jawaban: A"]);
  });

  it("loglikelihood tasks (UltraEval ppl): the context and continuations the run scores", async () => {
    const root = mkdtempSync(join(tmpdir(), "yardstick-prompts-ue-"));
    mkdirSync(join(root, "datasets", "hellaswag", "config"), { recursive: true });
    mkdirSync(join(root, "datasets", "hellaswag", "data"), { recursive: true });
    const config = {
      task_name: "activities",
      path: "datasets/hellaswag/data/activities.jsonl",
      description: "",
      transform: "datasets/hellaswag/transform_ppl_v1.py",
      fewshot: 0,
      generate: { method: "loglikelihood", params: "" },
      postprocess: "general_torch_ppl_norm",
      metric: { accuracy: { evaluation: { type: "log_prob" } } },
    };
    writeFileSync(join(root, "datasets", "hellaswag", "config", "activities_ppl.json"), JSON.stringify(config));
    const row = { passage: "", activity_label: "Cooking", question: "She cracks an egg", answer: "", target_scores: { "into the pan.": 1, "onto the roof.": 0 } };
    writeFileSync(join(root, "datasets", "hellaswag", "data", "activities.jsonl"), `${JSON.stringify(row)}\n`);
    const { lines } = await prompts([join(root, "datasets")]);
    expect(lines).toHaveLength(1);
    const request = lines[0]!.request as unknown as { kind: string; context: string; continuations: string[] };
    expect(request.kind).toBe("loglikelihood");
    expect(request.context).toContain("She cracks an egg");
    expect(request.continuations.map((c) => c.trim())).toEqual(["into the pan.", "onto the roof."]);
    const out = join(root, "run");
    await run([join(root, "datasets")], out);
    expect(stored(out)[0]!.request).toEqual(lines[0]!.request);
  });

  it("multi-turn: turn 1 only without a run store (and says so); turn 2 from the stored answer with --from", async () => {
    const dir = mkdtempSync(join(tmpdir(), "yardstick-prompts-mt-"));
    const taskDir = join(dir, "seahelm_tasks", "multi_turn", "chat");
    mkdirSync(join(taskDir, "data"), { recursive: true });
    writeFileSync(
      join(taskDir, "config.yaml"),
      [
        "two-turns:",
        "  metadata:",
        "    version: 1.0",
        "  name: two-turns",
        "  competency: multi-turn",
        "  metric_file: src/metrics/f1_acc_metric.py",
        "  metric_class: F1AccMetric",
        "  metric: normalized_accuracy",
        "  languages:",
        "    en:",
        "      filepath: data/en.jsonl",
        "      max_tokens: 32",
        "      prompt_template:",
        '        preamble: "Answer briefly."',
        '        task_template: "{question}"',
        '        answer_template: "{answer_tag} {label}"',
        '        answer_tag: "Answer:"',
        "",
      ].join("\n"),
    );
    const row = { id: "q1", label: "A", prompts: [{ question: "first question?" }, { question: "second question?" }] };
    writeFileSync(join(taskDir, "data", "en.jsonl"), `${JSON.stringify(row)}\n`);

    const alone = await prompts([taskDir]);
    expect(alone.lines.map((l) => l.turn)).toEqual([1]);
    expect(alone.err).toMatch(/task two-turns\/en: turn 2 and later of 1 sample\(s\) not printed: .*--from/);

    bodies.length = 0;
    const out = join(dir, "run");
    await run([taskDir], out);
    const withRun = await prompts([taskDir, "--from", out]);
    expect(withRun.err).toBe("");
    expect(withRun.lines.map((l) => l.turn)).toEqual([1, 2]);
    const turn2 = withRun.lines[1]!.request.messages;
    // Turn 1's answer is the dev server's reply to turn 1; turn 2 repeats the preamble, as upstream.
    expect(turn2).toEqual([
      { role: "user", content: "Answer briefly.\n\nfirst question?" },
      { role: "assistant", content: "Jawaban: A" },
      { role: "user", content: "Answer briefly.\n\nsecond question?" },
    ]);
    const sentTurn2 = stored(out).find((r) => r.turn === 2)!.request;
    expect(sentTurn2).toEqual(withRun.lines[1]!.request);
  });
});
