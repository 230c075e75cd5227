import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { z } from "zod";
import { type DataFolder, type LoadedTask, loadDataFolder } from "./data-folder.js";
import { firstIssue, visibleSample } from "./load.js";
import { appendResults, resultsCsv, resultLine, rewriteResults } from "./results-file.js";
import { DatasetRefSchema } from "./schemas.js";
import { type DoneRow, type Labeler, LabelStore, LabelStoreError } from "./store.js";
import { hashToken, newToken, sameHash } from "./tokens.js";
import { feedbackProblems } from "./validate-feedback.js";

export interface LabelingServerOptions {
  /** Folder with `tasks/`, `datasets/`, `results/`; `labels.sqlite` is created in it. */
  dataDir: string;
  /** The admin token; when absent one is generated and returned as `generatedAdminToken`. */
  adminToken?: string;
  /** Distinct labelers per sample when a task does not set `labelsPerSample` (default 1). */
  labelsPerSample?: number;
  /** How long an unanswered assignment holds its slot (default 30 minutes). */
  leaseMs?: number;
  /** Largest accepted request body in bytes (default 256 KiB). */
  bodyLimit?: number;
  /** Sync every commit to disk (default true); see `LabelStore`. */
  fsync?: boolean;
}

export interface LabelingServer {
  app: FastifyInstance;
  folder: DataFolder;
  store: LabelStore;
  /** Set only when no admin token was given: print it once. */
  generatedAdminToken: string | undefined;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

/** An error with the status code it answers with; the message is shown to the client. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Caller = { role: "admin" } | { role: "labeler"; labeler: Labeler };

declare module "fastify" {
  interface FastifyRequest {
    caller?: Caller;
  }
}

const PUBLIC_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "public");
const STATIC: Record<string, string> = {
  "/": "index.html",
  "/index.html": "index.html",
  "/app.js": "app.js",
  "/app.css": "app.css",
};
const CONTENT_TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};

function parse<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const { keyPath, message } = firstIssue(r.error);
  const path = keyPath.length > 0 ? `${where}.${keyPath.join(".")}` : where;
  throw new HttpError(400, `${path}: ${message}`);
}

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{8,200}$/;
const SESSION_COOKIE = "yardstick_label_session";
const SessionBody = z.object({ token: z.string().regex(TOKEN_FORMAT, "not a token") });

function sessionCookie(header: string | undefined): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE && value.length > 0) return value.join("=");
  }
  return undefined;
}

const TaskParams = z.object({ name: z.string().min(1).max(300) });
const LineBody = z.object({ line: z.number().int().positive() });
const SampleRef = z.looseObject({ id: z.union([z.string(), z.number().transform(String)]) });
const SubmissionBody = z
  .object({
    /** Yardstick's UI names the dataset line; Quest's echoes the sample(s) back. */
    line: z.number().int().positive().optional(),
    sample: z.union([SampleRef, z.array(SampleRef)]).optional(),
    feedback: z.record(z.string(), z.unknown()),
    timestamp: z.string().max(64).optional(),
  })
  .refine((b) => b.line !== undefined || b.sample !== undefined, "give line or sample");
const ExportQuery = z.object({ format: z.enum(["jsonl", "csv"]).default("jsonl") });
const DatasetQuery = z.object({ task: z.string().max(300).optional() });

export function createLabelingServer(options: LabelingServerOptions): LabelingServer {
  const folder = loadDataFolder(options.dataDir);
  const store = new LabelStore(folder.root, { fsync: options.fsync ?? true });
  const generatedAdminToken = options.adminToken ? undefined : newToken("yla");
  const adminHash = hashToken(options.adminToken ?? (generatedAdminToken as string));
  const defaultPerItem = options.labelsPerSample ?? 1;
  const leaseMs = options.leaseMs ?? 30 * 60_000;
  const perItem = (t: LoadedTask) => t.def.labelsPerSample ?? defaultPerItem;
  // Repair the results files after a crash between a commit and its append.
  for (const task of folder.tasks.values()) rewriteResults(task, store.doneRows(task.id), true);
  // Labels stored by the commit group in progress, appended to the results files once it commits.
  const unwritten = new Map<LoadedTask, DoneRow[]>();
  store.onCommit((committed) => {
    try {
      if (committed) for (const [task, rows] of unwritten) appendResults(task, rows);
    } catch (err) {
      // The labels are stored; the next start rewrites the results file from the database.
      process.emitWarning(`labeling: could not append to a results file (repaired at the next start): ${(err as Error).message}`);
    } finally {
      unwritten.clear();
    }
  });

  const app = Fastify({
    bodyLimit: options.bodyLimit ?? 256 * 1024,
    logger: false,
    return503OnClosing: true,
    // Errors fastify raises before routing (a malformed URL, say) get the same JSON shape.
    frameworkErrors: (err, _req, reply) => {
      (reply as unknown as FastifyReply).code(400).send({ error: err.message });
    },
  });

  app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
    if (err instanceof HttpError || err instanceof LabelStoreError) return reply.code(err.status).send({ error: err.message });
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    return reply.code(status).send({ error: status === 500 ? "internal server error" : err.message });
  });
  app.setNotFoundHandler((req, reply) => reply.code(404).send({ error: `no route ${req.method} ${req.url.split("?")[0]}` }));

  const callerOf = (token: string): Caller | undefined => {
    if (sameHash(hashToken(token), adminHash)) return { role: "admin" };
    const labeler = store.labelerByToken(token);
    return labeler ? { role: "labeler", labeler } : undefined;
  };

  app.addHook("onRequest", async (req, reply) => {
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "no-referrer");
    if (!req.url.startsWith("/api/") || req.url === "/api/health" || req.url === "/api/session") return;
    const bearer = /^Bearer (\S{1,300})$/.exec(req.headers.authorization ?? "")?.[1];
    const token = bearer ?? sessionCookie(req.headers.cookie);
    if (token === undefined) {
      reply.header("www-authenticate", "Bearer");
      throw new HttpError(401, "sign in: send Authorization: Bearer <token>, or sign in at /");
    }
    const caller = TOKEN_FORMAT.test(token) ? callerOf(token) : undefined;
    if (!caller) throw new HttpError(401, "unknown or revoked token");
    req.caller = caller;
  });

  /**
   * The sign-in page's session: the token in an HttpOnly, SameSite=Strict cookie limited to /api,
   * so page scripts never hold it and other sites cannot send it.
   */
  app.post("/api/session", async (req, reply) => {
    const { token } = parse(SessionBody, req.body, "body");
    const caller = callerOf(token);
    if (!caller) throw new HttpError(401, "unknown or revoked token");
    reply.header("set-cookie", `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/api; Max-Age=${12 * 3600}`);
    return caller.role === "labeler" ? { role: "labeler", name: caller.labeler.name } : { role: "admin" };
  });
  app.delete("/api/session", async (_req, reply) => {
    reply.header("set-cookie", `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/api; Max-Age=0`);
    return { signedOut: true };
  });

  const taskOf = (req: FastifyRequest): LoadedTask => {
    const { name } = parse(TaskParams, req.params, "path");
    const task = folder.tasks.get(name) ?? [...folder.tasks.values()].find((t) => t.resultsFile.endsWith(`/${name}`) || t.def.results === name);
    if (!task) throw new HttpError(404, `Task '${name}' not found`);
    return task;
  };
  const labelerOf = (req: FastifyRequest): Labeler => {
    if (req.caller?.role !== "labeler") throw new HttpError(403, "only a labeler can do this (the admin token reads, watches progress and exports)");
    return req.caller.labeler;
  };
  const adminOnly = (req: FastifyRequest): void => {
    if (req.caller?.role !== "admin") throw new HttpError(403, "admin token required");
  };
  const itemView = (task: LoadedTask, line: number) => {
    const item = task.itemByLine.get(line);
    const hidden = task.dataset.meta.hidden_metadata ?? [];
    return item ? { line, samples: item.samples.map((s) => visibleSample(s, hidden)) } : null;
  };
  const progressOf = (task: LoadedTask, caller: Caller) => {
    const totals = store.totals(task.id, perItem(task));
    const base = { task: task.id, items: task.lines.length, labelsPerSample: perItem(task), ...totals };
    if (caller.role === "admin") return { ...base, labelers: store.progress(task.id) };
    return { ...base, labelers: [store.labelerProgress(task.id, caller.labeler)] };
  };
  const nextLine = (task: LoadedTask, labeler: Labeler) => store.next(task.id, labeler.id, task.lines, perItem(task), leaseMs);
  const viewOf = (task: LoadedTask, line: number | undefined) => (line === undefined ? null : itemView(task, line));
  const nextFor = async (task: LoadedTask, labeler: Labeler) => viewOf(task, await store.batched(() => nextLine(task, labeler)));

  app.get("/api/health", async () => ({ ok: true }));
  app.get("/api/whoami", async (req) => (req.caller?.role === "labeler" ? { role: "labeler", name: req.caller.labeler.name } : { role: "admin" }));
  app.get("/api/task", async () => [...folder.tasks.keys()]);
  app.get("/api/task/:name", async (req) => {
    const task = taskOf(req);
    return { ...task.def, id: task.id, labelsPerSample: perItem(task), resultsCount: store.totals(task.id, perItem(task)).labels };
  });
  app.get("/api/task/:name/progress", async (req) => progressOf(taskOf(req), req.caller as Caller));
  app.get("/api/task/:name/next", async (req) => {
    const task = taskOf(req);
    const labeler = labelerOf(req);
    return { item: await nextFor(task, labeler), progress: progressOf(task, req.caller as Caller) };
  });
  app.post("/api/task/:name/skip", async (req) => {
    const task = taskOf(req);
    const labeler = labelerOf(req);
    const { line } = parse(LineBody, req.body, "body");
    const next = await store.batched(() => {
      store.skip(task.id, labeler.id, line);
      return nextLine(task, labeler);
    });
    return { item: viewOf(task, next), progress: progressOf(task, req.caller as Caller) };
  });
  app.post("/api/task/:name/undo", async (req) => {
    const task = taskOf(req);
    const labeler = labelerOf(req);
    const { item, removedLabel } = await store.batched(() => store.undo(task.id, labeler.id));
    if (removedLabel) rewriteResults(task, store.doneRows(task.id), false);
    return { item: itemView(task, item), progress: progressOf(task, req.caller as Caller) };
  });
  app.get("/api/task/:name/export", async (req, reply) => {
    adminOnly(req);
    const task = taskOf(req);
    const { format } = parse(ExportQuery, req.query, "query");
    const rows = store.doneRows(task.id);
    reply.header("content-disposition", `attachment; filename="${task.id}-labels.${format}"`);
    if (format === "csv") return reply.type("text/csv; charset=utf-8").send(resultsCsv(task, rows));
    return reply.type("application/x-ndjson; charset=utf-8").send(rows.map((r) => `${resultLine(task, r)}\n`).join(""));
  });

  /** Quest's route: the next line of a dataset for this labeler, as `[[...samples]]`, or `[]` when done. */
  app.post("/api/dataset", async (req) => {
    const labeler = labelerOf(req);
    const ref = parse(DatasetRefSchema, req.body, "body");
    const { task: taskName } = parse(DatasetQuery, req.query, "query");
    const name = ref.name.endsWith(".jsonl") ? ref.name : `${ref.name}.jsonl`;
    const task = [...folder.tasks.values()].find((t) => t.datasetName === name && (taskName === undefined || t.id === taskName));
    if (!task) throw new HttpError(404, "Dataset not found");
    const item = await nextFor(task, labeler);
    return item ? [item.samples] : [];
  });

  /** Quest's route, `:name` being the task id or its results file; validated against the task's feedback. */
  app.post("/api/results/:name", async (req) => {
    const task = taskOf(req);
    const labeler = labelerOf(req);
    const body = parse(SubmissionBody, req.body, "body");
    const line = body.line ?? lineOfSamples(task, body.sample);
    const problems = feedbackProblems(task.def.feedback, body.feedback);
    if (problems.length > 0) throw new HttpError(422, `feedback does not fit the task: ${problems.join("; ")}`);
    const clientTime = body.timestamp !== undefined && !Number.isNaN(Date.parse(body.timestamp)) ? body.timestamp : null;
    const outcome = await store.batched(() => {
      let row: DoneRow;
      try {
        row = store.submit(task.id, labeler.id, line, JSON.stringify(body.feedback), clientTime, perItem(task));
      } catch (err) {
        // Answered with its 409 after the commit: a line that got its labels while this labeler's
        // lease had run out is released (the refusal deletes the stale assignment), not rolled back.
        if (err instanceof LabelStoreError) return { refused: err };
        throw err;
      }
      const next = nextLine(task, labeler);
      // Last, so a job that fails (and is rolled back) leaves nothing to append.
      const rows = unwritten.get(task);
      if (rows) rows.push(row);
      else unwritten.set(task, [row]);
      return { row, next };
    });
    if ("refused" in outcome) throw outcome.refused;
    const { row, next } = outcome;
    return { stored: { line, labeler: row.labeler, serverTime: row.serverTime }, item: viewOf(task, next), progress: progressOf(task, req.caller as Caller) };
  });

  for (const [route, file] of Object.entries(STATIC)) {
    app.get(route, async (_req, reply: FastifyReply) => {
      const body = readFileSync(join(PUBLIC_DIR, file));
      reply.header("content-security-policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
      return reply.type(CONTENT_TYPES[file.split(".").pop() as string] as string).send(body);
    });
  }

  return {
    app,
    folder,
    store,
    generatedAdminToken,
    async listen(port = 0, host = "127.0.0.1") {
      await app.listen({ port, host });
      const address = app.server.address();
      const actual = typeof address === "object" && address ? address.port : port;
      return `http://${host.includes(":") ? `[${host}]` : host}:${actual}`;
    },
    async close() {
      await app.close();
      store.close();
    },
  };
}

function lineOfSamples(task: LoadedTask, sample: unknown): number {
  const ids = (Array.isArray(sample) ? sample : [sample]).map((s) => String((s as { id: unknown }).id));
  const item = task.dataset.items.find((i) => i.samples.length === ids.length && i.samples.every((s, j) => s.id === ids[j]));
  if (!item) throw new HttpError(400, `body.sample: no line of ${task.datasetName} has the sample ids ${ids.join(", ")}`);
  return item.line;
}
