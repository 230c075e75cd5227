import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type { ResolvedDevServerOptions } from "./dev-server-options.js";
import type { StatsCounter } from "./dev-server-stats.js";

/** A reply of the online endpoints, captured instead of sent: what a batch line gets. */
export interface CapturedReply {
  status: number;
  text: string;
}

/**
 * Answers one request body exactly as the online endpoint at `path` would (same code, same answers
 * and usage), without injected faults or latency.
 */
export type AnswerOffline = (path: string, body: Buffer, headers: IncomingHttpHeaders) => Promise<CapturedReply>;

/** What the batch endpoints share with the rest of the dev server. */
export interface BatchEndpointParts {
  options: ResolvedDevServerOptions["batch"];
  answerOffline: AnswerOffline;
  stats: StatsCounter;
  /** Seeded draw in [0, 1) for partial failures. */
  random: () => number;
  /** Timers of batches in progress, cleared when the server closes. */
  timers: Set<NodeJS.Timeout>;
}

/** How one request of a batch ended. */
export type LineOutcome =
  | { kind: "answered"; reply: CapturedReply }
  | { kind: "failed" }
  | { kind: "expired" }
  | { kind: "canceled" };

/**
 * Runs the requests of a batch in order: the last `expireRate` share (rounded up) are left
 * unfinished when the batch expires, a `failRate` share fails, the rest are answered by `answer`.
 * Requests not yet started when `cancelled()` turns true are cancelled.
 */
export async function runBatchLines(
  count: number,
  answer: (index: number) => Promise<CapturedReply>,
  parts: BatchEndpointParts,
  cancelled: () => boolean,
): Promise<LineOutcome[]> {
  const unfinished = Math.ceil(parts.options.expireRate * count);
  const out: LineOutcome[] = [];
  for (let i = 0; i < count; i++) {
    if (i >= count - unfinished) out.push({ kind: "expired" });
    else if (cancelled()) out.push({ kind: "canceled" });
    else if (parts.options.failRate > 0 && parts.random() < parts.options.failRate) out.push({ kind: "failed" });
    else out.push({ kind: "answered", reply: await answer(i) });
  }
  return out;
}

/** Calls `fn` after the configured processing delay (a timer the server clears on close). */
export function afterProcessing(parts: BatchEndpointParts, fn: () => void): void {
  const timer = setTimeout(() => {
    parts.timers.delete(timer);
    fn();
  }, parts.options.processingMs);
  timer.unref();
  parts.timers.add(timer);
}

/** A stand-in ServerResponse that records what a handler sends, for answering batch lines offline. */
export function captureResponse(): { res: ServerResponse; reply: Promise<CapturedReply> } {
  let resolve!: (r: CapturedReply) => void;
  const reply = new Promise<CapturedReply>((r) => {
    resolve = r;
  });
  const chunks: string[] = [];
  const fake = {
    statusCode: 200,
    headersSent: false,
    socket: null,
    writeHead(status: number) {
      fake.statusCode = status;
      fake.headersSent = true;
      return fake;
    },
    write(chunk: string | Buffer) {
      fake.headersSent = true;
      chunks.push(String(chunk));
      return true;
    },
    end(chunk?: string | Buffer) {
      if (chunk !== undefined) chunks.push(String(chunk));
      resolve({ status: fake.statusCode, text: chunks.join("") });
      return fake;
    },
    destroy() {
      resolve({ status: 500, text: JSON.stringify({ error: { message: "the request could not be answered", type: "server_error" } }) });
      return fake;
    },
  };
  return { res: fake as unknown as ServerResponse, reply };
}

/** A multipart/form-data body's parts: field name, file name (for files) and bytes. */
export interface FormPart {
  name: string;
  filename?: string;
  data: Buffer;
}

/** Parses a multipart/form-data body; undefined when the content type or the body is not one. */
export function parseMultipart(contentType: string | undefined, body: Buffer): FormPart[] | undefined {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? "");
  if (!contentType?.toLowerCase().startsWith("multipart/form-data") || !m) return undefined;
  const delimiter = Buffer.from(`--${m[1] ?? m[2]!.trim()}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  for (;;) {
    let start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === "--") return parts;
    if (body.subarray(start, start + 2).toString() === "\r\n") start += 2;
    const next = body.indexOf(delimiter, start);
    if (next < 0) return undefined;
    const headerEnd = body.indexOf("\r\n\r\n", start);
    if (headerEnd < 0 || headerEnd > next) return undefined;
    const head = body.subarray(start, headerEnd).toString("utf8");
    // The part's data ends with the CRLF before the next delimiter.
    const data = body.subarray(headerEnd + 4, next - 2);
    const disposition = /content-disposition:[^\r\n]*/i.exec(head)?.[0] ?? "";
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    if (name !== undefined) parts.push({ name, ...(filename !== undefined ? { filename } : {}), data });
    at = next;
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string, contentType: string): void {
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export const unixNow = (): number => Math.floor(Date.now() / 1000);
