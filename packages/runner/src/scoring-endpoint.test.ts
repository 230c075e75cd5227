import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MetricInput } from "@yardstick/core";
import { createSeahelmTranslationMetric } from "@yardstick/metrics";
import {
  type DevServer,
  type ScoringServer,
  metricxStandInScore,
  refClipStandInScores,
  startDevServer,
  startScoringServer,
  testMetric,
} from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";
import { type ScoringEndpoint, createScoringEndpoint } from "./scoring-endpoint.js";

const HERE = dirname(fileURLToPath(import.meta.url));
/** SEA-HELM's translation config (first task, `id`, three local rows). */
const TRANSLATION_CONFIG = join(HERE, "__fixtures__", "seahelm_translation");
const ROWS = readFileSync(join(TRANSLATION_CONFIG, "nlg", "translation", "data", "id.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as { id: string; prompts: [{ text: string }]; label: string });
/** The model's translations: the first exact, the others less so. */
const TRANSLATIONS: Record<string, string> = {
  t1: "Kucing tidur di atas tikar.",
  t2: "Kami ke pasar kemarin.",
  t3: "Di Jakarta sedang hujan.",
};

/** SEA-HELM's xm3600 config (`id`, three local rows with a 1×1 PNG each), and the model's caption for every image. */
const XM3600_CONFIG = join(HERE, "__fixtures__", "seahelm_xm3600_local");
const XM3600_ROWS = readFileSync(join(XM3600_CONFIG, "vision", "xm3600", "data", "id.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as { id: string; label: string[]; image: string });
const CAPTION = "Seekor kucing tidur di sofa.";

let scoring: ScoringServer;
let dev: DevServer;
let endpoint: ScoringEndpoint | undefined;
beforeAll(async () => {
  scoring = await startScoringServer();
  endpoint = createScoringEndpoint({ url: scoring.url, metric: "metricx-24" });
  dev = await startDevServer({
    port: 0,
    policy: (req) => {
      if (req.lastUserText.includes("Berikan keterangan gambar")) return `Keterangan: ${CAPTION}`;
      const row = ROWS.find((r) => req.lastUserText.includes(r.prompts[0].text));
      return `Terjemahan: ${row ? TRANSLATIONS[row.id] : "?"}`;
    },
  });
});
afterAll(async () => {
  await scoring.close();
  await dev.close();
});

const item = (i: number, candidate: string, reference: string): MetricInput => ({
  sampleId: String(i),
  prediction: candidate,
  reference,
  sample: { id: String(i), prompts: [{ text: `source ${i}` }], label: reference, raw: {} },
});

// The translation metric scoring through the real client and the stand-in server (resolved when the checks run).
testMetric(
  createSeahelmTranslationMetric({ metricx: { name: "stand-in", score: (items, signal) => endpoint!.score(items, signal) } }),
  [
    {
      name: "MetricX from a scoring endpoint",
      inputs: [item(1, "Saya suka kucing.", "Saya menyukai kucing."), item(2, "Dia pergi.", "Dia sudah pergi."), item(3, "", "Hujan turun.")],
      expectedRange: { normalized_metricx_wmt24_scores: [0, 100], metricx_wmt24_scores: [0, 25] },
    },
  ],
  { invalidOptions: [{ useMetricx: "no" }] },
);
testMetric(createSeahelmTranslationMetric({ metricxMissingReason: "no --metricx-url" }), [
  { name: "no MetricX endpoint: chrF++ instead", inputs: [item(1, "Saya suka kucing.", "Saya menyukai kucing."), item(2, "Dia pergi.", "Dia sudah pergi.")], expectedRange: { chrf_score: [0, 100] } },
]);

describe("the scoring endpoint client", () => {
  it("sends batches of batchSize with the metric, model and bearer key, and returns the scores in order", async () => {
    const server = await startScoringServer({ score: (i) => Number(i.n) });
    try {
      const client = createScoringEndpoint({ url: server.url, metric: "metricx-24", model: "m", batchSize: 2, apiKey: "k" });
      expect(await client.score([0, 1, 2, 3, 4].map((n) => ({ n })))).toEqual([0, 1, 2, 3, 4]);
      expect(server.stats()).toMatchObject({ requests: 3, batchSizes: [2, 2, 1], last: { metric: "metricx-24", model: "m" }, lastAuthorization: "Bearer k" });
    } finally {
      await server.close();
    }
  });

  it("retries 503 and gives up with the last problem; other statuses, a wrong count and a timeout are clear errors", async () => {
    const loading = await startScoringServer({ failFirst: 2 });
    const bad = await startScoringServer({ alwaysStatus: { status: 422, body: '{"error":"items[0].source missing"}' } });
    const short = await startScoringServer({ dropOneScore: true });
    const slow = await startScoringServer({ delayMs: 400 });
    try {
      const items = [{ source: "a", candidate: "b", reference: "b" }];
      expect(await createScoringEndpoint({ url: loading.url, metric: "metricx-24", retryDelayMs: 1 }).score(items)).toEqual([0]);
      expect(loading.stats().requests).toBe(3);
      const down = await startScoringServer({ failFirst: 99 });
      await expect(createScoringEndpoint({ url: down.url, metric: "metricx-24", retryDelayMs: 1, maxAttempts: 2 }).score(items)).rejects.toThrow(
        /POST http:\/\/127\.0\.0\.1:\d+\/score failed 2 time\(s\); last: answered 503: \{"error":"model loading"\}/,
      );
      await down.close();
      await expect(createScoringEndpoint({ url: bad.url, metric: "metricx-24" }).score(items)).rejects.toThrow(/answered 422: \{"error":"items\[0\]\.source missing"\}/);
      expect(bad.stats().requests).toBe(1);
      await expect(createScoringEndpoint({ url: short.url, metric: "metricx-24" }).score([...items, ...items])).rejects.toThrow(/answered 1 score\(s\) for 2 item\(s\)/);
      await expect(createScoringEndpoint({ url: slow.url, metric: "metricx-24", timeoutMs: 100, maxAttempts: 1 }).score(items)).rejects.toThrow(/no answer within 100 ms/);
      await expect(createScoringEndpoint({ url: "http://127.0.0.1:9/score", metric: "metricx-24", maxAttempts: 1 }).score(items)).rejects.toThrow(/no answer \(ECONNREFUSED\)/);
    } finally {
      await Promise.all([loading.close(), bad.close(), short.close(), slow.close()]);
    }
  });
});

describe("SEA-HELM translation tasks and MetricX", () => {
  it("without --metricx-url: chrF++ and 'MetricX not computed' in the table and results, exit 0; score-run --metricx-url then scores MetricX", async () => {
    const out = mkdtempSync(join(tmpdir(), "ys-translation-"));
    const scoringRequests = scoring.stats().requests;
    const cache = mkdtempSync(join(tmpdir(), "ys-translation-cache-"));
    const io = captureIO({ YARDSTICK_CACHE_DIR: cache });
    const args = ["run", TRANSLATION_CONFIG, "--model", "openai-compatible:toy", "--base-url", `${dev.url}/v1`, "--out", out, "--no-report"];
    expect(await main(args, io), io.err()).toBe(0);
    expect(io.out()).toMatch(/translation-en-xx\s+id\s+normalized_metricx_wmt24_scores\s+not computed/);
    expect(io.err()).toMatch(/task translation-en-xx\/id: MetricX not computed \(no --metricx-url\); chrF\+\+ \d+\.\d\d is reported in chrf_score/);
    const task = JSON.parse(readFileSync(join(out, "results.json"), "utf8")).id.nlg["translation-en-xx"];
    expect(task.chrf_score).toBeGreaterThan(0);
    expect(task.normalized_metricx_wmt24_scores).toBeUndefined();
    expect(task.not_computed).toMatch(/^MetricX not computed \(no --metricx-url\)/);
    expect(scoring.stats().requests).toBe(scoringRequests);

    const rescore = captureIO({ YARDSTICK_CACHE_DIR: cache });
    expect(await main(["score-run", out, "--metricx-url", scoring.url], rescore), rescore.err()).toBe(0);
    const expected = ROWS.map((r) => 100 * Math.max((25 - metricxStandInScore({ candidate: TRANSLATIONS[r.id], reference: r.label })) / 25, 0));
    const scored = JSON.parse(readFileSync(join(out, "results.json"), "utf8")).id.nlg["translation-en-xx"];
    expect(scored.normalized_metricx_wmt24_scores).toBeCloseTo(expected.reduce((a, b) => a + b, 0) / 3, 9);
    expect(scored.not_computed).toBeUndefined();
    expect(expected[0]).toBe(100);
    expect(scoring.stats().last).toEqual({ metric: "metricx-24", model: "google/metricx-24-hybrid-xxl-v2p6-bfloat16" });
    const perSample = readFileSync(join(out, "scores", "translation-en-xx_id.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(perSample.map((s) => s.scores.metricx_wmt24_scores)).toEqual(ROWS.map((r) => metricxStandInScore({ candidate: TRANSLATIONS[r.id], reference: r.label })));
  });

  it("run --metricx-url scores MetricX; an endpoint that fails makes the task fail with the endpoint's answer", async () => {
    const out = mkdtempSync(join(tmpdir(), "ys-translation-url-"));
    const env = { YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "ys-translation-cache-")) };
    const io = captureIO(env);
    expect(await main(["run", TRANSLATION_CONFIG, "--model", "openai-compatible:toy", "--base-url", `${dev.url}/v1`, "--out", out, "--no-report", "--metricx-url", scoring.url], io), io.err()).toBe(0);
    expect(io.out()).toMatch(/translation-en-xx\s+id\s+normalized_metricx_wmt24_scores\s+\d+\.\d\d/);

    const broken = await startScoringServer({ alwaysStatus: { status: 400, body: '{"error":"unknown metric"}' } });
    try {
      const failing = captureIO(env);
      expect(await main(["score-run", out, "--metricx-url", broken.url], failing)).toBe(1);
      expect(failing.err()).toMatch(/task translation-en-xx\/id could not be scored: .*MetricX scoring at http:\/\/127\.0\.0\.1:\d+\/score failed: POST \S+ answered 400: \{"error":"unknown metric"\}/);
      const usage = captureIO(env);
      expect(await main(["score-run", out, "--metricx-url", "ftp://x"], usage)).toBe(2);
      expect(usage.err()).toMatch(/--metricx-url: expected an http\(s\) URL/);
    } finally {
      await broken.close();
    }
  });
});

describe("SEA-HELM xm3600 and RefCLIPScore", () => {
  it("runs with --refclipscore-url (image, caption and references sent; SEA-HELM's normalisation), and is refused without it", async () => {
    const env = { YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "ys-xm3600-cache-")) };
    const refused = captureIO(env);
    expect(await main(["run", XM3600_CONFIG, "--model", "openai-compatible:toy", "--base-url", `${dev.url}/v1`, "--no-report"], refused)).toBe(1);
    expect(refused.err()).toMatch(/task xm3600\/id scores captions with RefCLIPScore.*--refclipscore-url or YARDSTICK_REFCLIPSCORE_URL/);

    const out = mkdtempSync(join(tmpdir(), "ys-xm3600-"));
    const io = captureIO(env);
    const args = ["run", XM3600_CONFIG, "--model", "openai-compatible:toy", "--base-url", `${dev.url}/v1`, "--out", out, "--no-report", "--refclipscore-url", scoring.url];
    expect(await main(args, io), io.err()).toBe(0);
    expect(scoring.stats().last).toEqual({ metric: "refclipscore", model: "laion/CLIP-ViT-H-14-frozen-xlm-roberta-large-laion5B-s13B-b90k" });
    const pairs = XM3600_ROWS.map((r) => refClipStandInScores({ image: r.image, candidate: CAPTION, references: r.label }));
    const refclip = pairs.map((p) => (2 * p.clipscore * p.ref_similarity) / (p.clipscore + p.ref_similarity));
    const task = JSON.parse(readFileSync(join(out, "results.json"), "utf8")).id.vision.xm3600;
    expect(task.normalized_refclipscore).toBeCloseTo((100 * refclip.reduce((a, b) => a + b, 0)) / 3, 9);
    expect(task.clipscore).toBeCloseTo(pairs.reduce((a, p) => a + p.clipscore, 0) / 3, 12);
    // The exact reference caption of x1 is the best match there.
    expect(pairs[0]!.ref_similarity).toBe(1);
    expect(io.out()).toMatch(/xm3600\s+id\s+normalized_refclipscore\s+\d+\.\d\d/);
  });

  it("an answer whose scores are not {clipscore, ref_similarity} objects is a clear error", async () => {
    const numbers = await startScoringServer({ score: () => 0.5 });
    try {
      const client = createScoringEndpoint({ url: numbers.url, metric: "refclipscore" });
      await expect(client.scoreFields([{ image: "x", candidate: "a", references: ["a"] }], ["clipscore", "ref_similarity"])).rejects.toThrow(
        /answered scores\[0\] = 0\.5; expected \{"clipscore": number, "ref_similarity": number\}/,
      );
    } finally {
      await numbers.close();
    }
  });
});
