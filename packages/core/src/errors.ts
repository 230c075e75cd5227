import type { ModelErrorKind } from "./messages.js";

/**
 * Error classes. `isInstance` checks a `Symbol.for` marker rather than the prototype chain so that
 * errors thrown by a second installed copy of @yardstick/core are still recognised.
 */
const MARKER = Symbol.for("yardstick.error");

export interface YardstickErrorOptions {
  cause?: unknown;
}

export class YardstickError extends Error {
  readonly [MARKER] = true;
  /** A stable machine-readable code, e.g. "config", "data-load", "api-call". */
  readonly code: string = "yardstick";

  constructor(message: string, options: YardstickErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
  }

  static isInstance(value: unknown): value is YardstickError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

function hasCode<T extends YardstickError>(value: unknown, code: string): value is T {
  return YardstickError.isInstance(value) && value.code === code;
}

export interface ConfigErrorDetails extends YardstickErrorOptions {
  file?: string;
  line?: number;
  column?: number;
  /** Key path inside the document, e.g. ["sentiment", "languages", "id", "max_tokens"]. */
  keyPath?: readonly (string | number)[];
  expected?: string;
}

/** Bad configuration: carries the position so the CLI can print `file:line:column key.path: message`. */
export class ConfigError extends YardstickError {
  override readonly code = "config";
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly keyPath: readonly (string | number)[];
  readonly expected: string | undefined;

  constructor(message: string, details: ConfigErrorDetails = {}) {
    super(formatConfigMessage(message, details), details);
    this.file = details.file;
    this.line = details.line;
    this.column = details.column;
    this.keyPath = details.keyPath ?? [];
    this.expected = details.expected;
  }

  static override isInstance(value: unknown): value is ConfigError {
    return hasCode(value, "config");
  }
}

export function formatKeyPath(path: readonly (string | number)[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? key : `.${key}`;
  }
  return out;
}

function formatConfigMessage(message: string, d: ConfigErrorDetails): string {
  let where = d.file ?? "";
  if (d.file !== undefined && d.line !== undefined) where += `:${d.line}${d.column !== undefined ? `:${d.column}` : ""}`;
  const path = d.keyPath && d.keyPath.length > 0 ? formatKeyPath(d.keyPath) : "";
  const prefix = [where, path].filter((s) => s !== "").join(" ");
  const expected = d.expected ? ` (expected ${d.expected})` : "";
  return prefix ? `${prefix}: ${message}${expected}` : `${message}${expected}`;
}

/** A data file or dataset could not be read or a row does not have the expected shape. */
export class DataLoadError extends YardstickError {
  override readonly code = "data-load";
  readonly file: string | undefined;
  readonly line: number | undefined;

  constructor(message: string, details: YardstickErrorOptions & { file?: string; line?: number } = {}) {
    const where = details.file ? `${details.file}${details.line !== undefined ? `:${details.line}` : ""}: ` : "";
    super(`${where}${message}`, details);
    this.file = details.file;
    this.line = details.line;
  }

  static override isInstance(value: unknown): value is DataLoadError {
    return hasCode(value, "data-load");
  }
}

/** A call to a model server failed. `retryable` tells the engine whether another attempt may help. */
export class ApiCallError extends YardstickError {
  override readonly code = "api-call";
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly url: string | undefined;
  /** Seconds the server asked us to wait (Retry-After), when given. */
  readonly retryAfterSeconds: number | undefined;
  /** What kind of failure it was (stored as a field of the run store's error record). */
  readonly kind: ModelErrorKind | undefined;
  /** How many attempts were made before giving up. */
  readonly attempts: number | undefined;

  constructor(
    message: string,
    details: YardstickErrorOptions & {
      status?: number;
      retryable: boolean;
      url?: string;
      retryAfterSeconds?: number;
      kind?: ModelErrorKind;
      attempts?: number;
    },
  ) {
    super(message, details);
    this.status = details.status;
    this.retryable = details.retryable;
    this.url = details.url;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.kind = details.kind;
    this.attempts = details.attempts;
  }

  static override isInstance(value: unknown): value is ApiCallError {
    return hasCode(value, "api-call");
  }
}

/** A metric was given input it cannot score. Names the metric and, when known, the sample. */
export class MetricError extends YardstickError {
  override readonly code = "metric";
  readonly metricId: string;
  readonly sampleId: string | undefined;

  constructor(message: string, details: YardstickErrorOptions & { metricId: string; sampleId?: string }) {
    super(`metric ${details.metricId}${details.sampleId !== undefined ? ` (sample ${details.sampleId})` : ""}: ${message}`, details);
    this.metricId = details.metricId;
    this.sampleId = details.sampleId;
  }

  static override isInstance(value: unknown): value is MetricError {
    return hasCode(value, "metric");
  }
}

/** A config or flag named a plugin id that is not registered. Lists the ids that exist. */
export class NoSuchPluginError extends YardstickError {
  override readonly code = "no-such-plugin";
  readonly kind: string;
  readonly pluginId: string;
  readonly available: readonly string[];

  constructor(kind: string, pluginId: string, available: readonly string[], options: YardstickErrorOptions = {}) {
    const list = available.length > 0 ? [...available].sort().join(", ") : "(none registered)";
    super(`unknown ${kind} "${pluginId}"; available: ${list}`, options);
    this.kind = kind;
    this.pluginId = pluginId;
    this.available = available;
  }

  static override isInstance(value: unknown): value is NoSuchPluginError {
    return hasCode(value, "no-such-plugin");
  }
}
