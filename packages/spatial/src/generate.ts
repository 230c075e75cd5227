import { createHash, hash } from "node:crypto";
import { createRng, type Rng, type RngState } from "@yardstick/core";
import { type Mode, TASK_NAMES, type TaskName } from "./constants.js";
import { coordinatesDescription, fullDescription, partialDescription } from "./descriptions.js";
import { SpatialGenerationError } from "./errors.js";
import { getRelationships } from "./relations.js";
import { sampleShapes } from "./sampling.js";
import type { Shape } from "./shape.js";
import { TASKS_BY_NAME } from "./tasks/index.js";
import { CanvasRejected, type QA, type SpatialTask } from "./tasks/types.js";

export interface GenerateOptions {
  /** Shapes per canvas (1..24). */
  shapes: number;
  /** Number of canvases. */
  count: number;
  seed: string | number;
  /** "fixed" (default) corrects upstream bugs; "compat" reproduces them. */
  mode?: Mode;
  /** Tasks to generate, default all six. */
  tasks?: readonly TaskName[];
}

/** One canvas with its descriptions and questions: the content of an original data file. */
export interface CanvasRecord {
  index: number;
  /** `canvas_{n}_{i}` */
  name: string;
  shapes: Shape[];
  descriptions: Record<string, string>;
  questions: Partial<Record<TaskName, QA[]>>;
}

/** Canvases drawn per index before giving up (a canvas is redrawn when a task cannot use it). */
const MAX_CANVAS_ATTEMPTS = 1000;

export interface ResolvedOptions {
  shapes: number;
  count: number;
  seed: string;
  mode: Mode;
  tasks: TaskName[];
}

export function resolveOptions(options: GenerateOptions): ResolvedOptions {
  const { shapes, count } = options;
  if (!Number.isInteger(shapes) || shapes < 1) throw new SpatialGenerationError(`--shapes must be an integer >= 1, got ${shapes}`);
  if (!Number.isInteger(count) || count < 0) throw new SpatialGenerationError(`--count must be an integer >= 0, got ${count}`);
  const tasks = [...(options.tasks ?? TASK_NAMES)];
  for (const t of tasks) {
    if (!(TASK_NAMES as readonly string[]).includes(t)) {
      throw new SpatialGenerationError(`unknown task "${t}"; expected one of ${TASK_NAMES.join(", ")}`);
    }
  }
  // Keep upstream's task order whatever order they were given in: it fixes the RNG draw order.
  const ordered = TASK_NAMES.filter((t) => tasks.includes(t));
  return { shapes, count, seed: String(options.seed), mode: canonicalMode(options.mode ?? "fixed"), tasks: ordered };
}

/**
 * The mode as the literal itself. In a worker thread the options arrive as copies of the strings;
 * optimized code comparing such a copy with the literal deoptimized ("wrong instance type") once
 * the copy had been used as a property key, which turns it into a thin string.
 */
function canonicalMode(mode: Mode): Mode {
  return mode === "compat" ? "compat" : mode === "fixed" ? "fixed" : mode;
}

/** A short hash of everything that changes the generated content; part of every item id. */
export function optionsFingerprint(o: ResolvedOptions): string {
  // Compat balancing is in contiguous blocks sized by the count, so there the same index holds a
  // different item for another count: the count is part of a compat dataset's identity. Fixed mode
  // interleaves, so its ids stay valid across counts (a longer dataset extends a shorter one).
  const canonical = JSON.stringify({ seed: o.seed, shapes: o.shapes, mode: o.mode, tasks: o.tasks, ...(o.mode === "compat" ? { count: o.count } : {}) });
  return createHash("sha256").update(canonical).digest("hex").slice(0, 12);
}

/** optionsFingerprint per options object (a hash per canvas showed in profiles); re-checked against the fields. */
const fingerprintCache = new WeakMap<ResolvedOptions, { seed: string; shapes: number; mode: Mode; tasks: TaskName[]; count: number; fingerprint: string }>();

function cachedFingerprint(o: ResolvedOptions): string {
  const hit = fingerprintCache.get(o);
  if (hit !== undefined && hit.seed === o.seed && hit.shapes === o.shapes && hit.mode === o.mode && hit.count === o.count && sameTasks(hit.tasks, o.tasks)) {
    return hit.fingerprint;
  }
  const fingerprint = optionsFingerprint(o);
  fingerprintCache.set(o, { seed: o.seed, shapes: o.shapes, mode: o.mode, tasks: [...o.tasks], count: o.count, fingerprint });
  return fingerprint;
}

function sameTasks(a: readonly TaskName[], b: readonly TaskName[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * The same state words as `createRng(key)` (the first 16 bytes of the key's SHA-256, little-endian
 * words), from the one-shot `crypto.hash`: a `createHash` object per canvas cost about a sixth of
 * the generation time of a 3-shape canvas.
 */
export function canvasSeedState(key: string): RngState {
  // One character per digest byte ("binary", i.e. latin1): no hex string to slice and parse.
  const bytes = hash("sha256", key, "binary");
  const word = (k: number): number =>
    (bytes.charCodeAt(4 * k) | (bytes.charCodeAt(4 * k + 1) << 8) | (bytes.charCodeAt(4 * k + 2) << 16) | (bytes.charCodeAt(4 * k + 3) << 24)) >>> 0;
  const words: RngState = [word(0), word(1), word(2), word(3)];
  // As seedStateFromKey: an all-zero state is replaced (never happens in practice).
  if ((words[0] | words[1] | words[2] | words[3]) === 0) words[0] = 1;
  return words;
}

/**
 * Generates canvas i. Each canvas has its own PRNG stream keyed by (options, index), so a canvas
 * does not depend on how many were generated before it, and generation can be split or resumed.
 */
export function generateCanvas(options: ResolvedOptions, index: number): CanvasRecord {
  const name = `canvas_${options.shapes}_${index}`;
  const rng = createRng(canvasSeedState(`${cachedFingerprint(options)}:${index}`));
  let lastReason = "";
  for (let attempt = 0; attempt < MAX_CANVAS_ATTEMPTS; attempt++) {
    const shapes = sampleShapes(options.shapes, rng, name);
    const refusing = refusingTask(options, shapes);
    if (refusing !== undefined) {
      lastReason = `${refusing.name} cannot use the canvas`;
      continue;
    }
    try {
      return buildRecord(options, index, name, shapes, rng);
    } catch (err) {
      if (!(err instanceof CanvasRejected)) throw err;
      lastReason = err.reason;
    }
  }
  throw new SpatialGenerationError(
    `${name}: no usable canvas with ${options.shapes} shapes after ${MAX_CANVAS_ATTEMPTS} draws (${lastReason}); ` +
      "try fewer shapes, fewer tasks or --mode compat",
  );
}

/** The first task that cannot use the canvas. A loop rather than map and find: see shapeLabels. */
function refusingTask(options: ResolvedOptions, shapes: Shape[]): SpatialTask | undefined {
  for (const name of options.tasks) {
    const task = TASKS_BY_NAME[name];
    if (task.accepts !== undefined && !task.accepts(shapes, options.mode)) return task;
  }
  return undefined;
}

function buildRecord(options: ResolvedOptions, index: number, name: string, shapes: Shape[], rng: Rng) {
  const { mode } = options;
  const rels = getRelationships(shapes);
  // Texts come finished for the mode (fixed: no trailing space), so nothing is trimmed here.
  const descriptions: Record<string, string> = {
    full: fullDescription(shapes, rels, mode),
    partial: partialDescription(shapes, rels, mode),
    coordinates: coordinatesDescription(shapes, mode),
  };
  const questions: Partial<Record<TaskName, QA[]>> = {};
  for (const taskName of options.tasks) {
    const task = TASKS_BY_NAME[taskName];
    const expected = task.selectExpected(index, options.count, mode);
    const out = task.generate({ shapes, rels, rng, mode, canvasName: name }, expected);
    if (out === undefined || out.questions.length === 0) continue;
    questions[taskName] = out.questions;
    if (out.description !== undefined) descriptions[taskName] = out.description;
  }
  return { index, name, shapes, descriptions, questions };
}

export function* generateDataset(options: GenerateOptions): Generator<CanvasRecord> {
  const resolved = resolveOptions(options);
  for (let i = 0; i < resolved.count; i++) yield generateCanvas(resolved, i);
}
