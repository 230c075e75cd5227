import { type BatchHandle, type BatchItem, type BatchSubmitContext, ConfigError } from "@yardstick/core";

export type { BatchClient, BatchHandle, BatchItem, BatchResult, BatchStatus, BatchSubmitContext } from "@yardstick/core";

/** Limits a client may be given (lower than the API's, for tests or a proxy with its own). */
export interface BatchLimitOptions {
  maxRequests?: number;
  maxBytes?: number;
}

const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Splits serialised batch lines into groups within the limits, in order. `sizeOf` is each line's
 * size in bytes; `overhead` what the batch adds around them. A line over the size limit alone is a
 * ConfigError naming it.
 */
export function splitByLimits<T>(
  lines: readonly T[],
  sizeOf: (line: T) => number,
  limits: { maxRequests: number; maxBytes: number },
  overhead = 0,
  nameOf: (line: T) => string = () => "a request",
): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let bytes = overhead;
  for (const line of lines) {
    const size = sizeOf(line);
    if (size + overhead > limits.maxBytes) {
      throw new ConfigError(`${nameOf(line)} is ${size} bytes, more than a batch may hold (${limits.maxBytes} bytes)`);
    }
    if (current.length >= limits.maxRequests || bytes + size > limits.maxBytes) {
      groups.push(current);
      current = [];
      bytes = overhead;
    }
    current.push(line);
    bytes += size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** Creates a batch per group, in order (`create` returns its id), telling the caller as each one exists. */
export async function createPerGroup<T extends { customId: string }>(
  groups: readonly T[][],
  create: (group: readonly T[]) => Promise<string>,
  ctx: BatchSubmitContext | undefined,
): Promise<BatchHandle[]> {
  const handles: BatchHandle[] = [];
  for (const group of groups) {
    const handle = { id: await create(group), customIds: group.map((l) => l.customId) };
    await ctx?.onCreated?.(handle);
    handles.push(handle);
  }
  return handles;
}

/** Custom ids must be unique within a submission and fit both APIs' rules. */
export function checkCustomIds(items: readonly BatchItem[]): void {
  const seen = new Set<string>();
  for (const item of items) {
    if (!CUSTOM_ID.test(item.customId)) {
      throw new ConfigError(`batch custom id ${JSON.stringify(item.customId)} must be 1 to 64 letters, digits, "_" or "-"`);
    }
    if (seen.has(item.customId)) throw new ConfigError(`batch custom id ${JSON.stringify(item.customId)} is used twice`);
    seen.add(item.customId);
  }
}
