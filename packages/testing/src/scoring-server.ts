import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for a scoring endpoint (the JSON protocol of yardstick's `--metricx-url`): real HTTP on
 * 127.0.0.1, deterministic scores, faults on request. Protocol:
 *
 *   POST <any path>  { "metric": "metricx-24", "model": string | null, "items": [ {source, candidate, reference}, ... ] }
 *   200              { "scores": [ number, ... ] }   one per item, in order
 *
 * A body that is not that shape is answered 400 with a reason.
 */
export interface ScoringServerOptions {
  /** Default 0: any free port. */
  port?: number;
  /** The score of one item (default `standInScore`). */
  score?: (item: Record<string, unknown>, metric: string) => number | Record<string, number>;
  /** Answer the first N requests with 503 (a server still loading its model). */
  failFirst?: number;
  /** Answer every request with this status and body instead of scores. */
  alwaysStatus?: { status: number; body: string };
  /** Answer one score fewer than the items sent. */
  dropOneScore?: boolean;
  /** Wait this long before answering (to test timeouts). */
  delayMs?: number;
}

export interface ScoringServerStats {
  requests: number;
  /** Items per request, in arrival order. */
  batchSizes: number[];
  /** The `metric` and `model` fields of the last request. */
  last?: { metric: unknown; model: unknown };
  /** Authorization header of the last request. */
  lastAuthorization?: string;
}

export interface ScoringServer {
  /** e.g. http://127.0.0.1:PORT/score */
  url: string;
  stats(): ScoringServerStats;
  close(): Promise<void>;
}

/**
 * A deterministic MetricX-like score (0 best, 25 worst): 25 × (1 − Dice similarity of the character
 * bigrams of candidate and reference). Identical texts score 0, texts sharing no bigram 25.
 */
export function metricxStandInScore(item: Record<string, unknown>): number {
  return round6(25 * (1 - bigramDice(String(item.candidate ?? ""), String(item.reference ?? ""))));
}

/**
 * Deterministic RefCLIPScore-like similarities, each 0–1: `ref_similarity` is the best bigram Dice
 * similarity of the candidate to a reference; `clipscore` is that of the candidate to the image
 * string's last 64 characters, averaged with 0.5 so it is never 0 (a stand-in for image–text
 * similarity that depends on both).
 */
export function refClipStandInScores(item: Record<string, unknown>): { clipscore: number; ref_similarity: number } {
  const candidate = String(item.candidate ?? "");
  const references = Array.isArray(item.references) ? item.references.map(String) : [];
  const ref = Math.max(0, ...references.map((r) => bigramDice(candidate, r)));
  const image = String(item.image ?? "");
  return { clipscore: round6((0.5 + bigramDice(candidate, image.slice(-64))) / 2), ref_similarity: round6(ref) };
}

/** The default score: RefCLIPScore-like pairs for `metric: "refclipscore"`, else MetricX-like numbers. */
export function standInScore(item: Record<string, unknown>, metric: string): number | Record<string, number> {
  return metric === "refclipscore" ? refClipStandInScores(item) : metricxStandInScore(item);
}

/** Dice similarity of the character-bigram multisets of two texts (1 when both have none). */
function bigramDice(x: string, y: string): number {
  const a = bigrams(x);
  const b = bigrams(y);
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const [g, n] of a) shared += Math.min(n, b.get(g) ?? 0);
  const total = [...a.values(), ...b.values()].reduce((p, q) => p + q, 0);
  return (2 * shared) / total;
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

function bigrams(text: string): Map<string, number> {
  const chars = [...text];
  const out = new Map<string, number>();
  for (let i = 0; i + 1 < chars.length; i++) {
    const g = chars[i]! + chars[i + 1]!;
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

export async function startScoringServer(options: ScoringServerOptions = {}): Promise<ScoringServer> {
  const stats: ScoringServerStats = { requests: 0, batchSizes: [] };
  const score = options.score ?? standInScore;
  const send = (res: ServerResponse, status: number, body: string): void => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body);
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    stats.requests++;
    if (typeof req.headers.authorization === "string") stats.lastAuthorization = req.headers.authorization;
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    if (req.method !== "POST") return send(res, 405, JSON.stringify({ error: "POST a JSON body" }));
    if (options.alwaysStatus) return send(res, options.alwaysStatus.status, options.alwaysStatus.body);
    if (options.failFirst && stats.requests <= options.failFirst) return send(res, 503, JSON.stringify({ error: "model loading" }));
    let body: { metric?: unknown; model?: unknown; items?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return send(res, 400, JSON.stringify({ error: "body is not JSON" }));
    }
    if (typeof body.metric !== "string" || !Array.isArray(body.items) || body.items.some((i) => typeof i !== "object" || i === null)) {
      return send(res, 400, JSON.stringify({ error: 'expected {"metric": string, "items": [object, ...]}' }));
    }
    stats.batchSizes.push(body.items.length);
    stats.last = { metric: body.metric, model: body.model };
    const scores = (body.items as Record<string, unknown>[]).map((i) => score(i, body.metric as string));
    if (options.dropOneScore) scores.pop();
    send(res, 200, JSON.stringify({ scores }));
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, JSON.stringify({ error: String(err) })));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/score`,
    stats: () => structuredClone(stats),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
