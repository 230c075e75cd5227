/** Request counters behind `GET /stats`. Plain counters: cheap enough for the benchmark hot path. */
export interface DevServerStats {
  /** Requests received per path (every request, whatever the answer). */
  requests: Record<string, number>;
  /** Of those, the retries per path: requests whose client says which attempt they are (`x-yardstick-attempt` ≥ 2). */
  retries: Record<string, number>;
  /** Valid chat/completion requests per `promptHash` of their messages or prompt (faulted ones included). */
  byPromptHash: Record<string, number>;
  /** Injected faults per kind. */
  faults: Record<string, number>;
  /** Batches created through the batch APIs (OpenAI and Anthropic together) and the requests in them. */
  batches: { created: number; requests: number };
}

export interface StatsCounter {
  request(path: string, retry?: boolean): void;
  prompt(hash: string): void;
  fault(kind: string): void;
  batch(requests: number): void;
  snapshot(): DevServerStats;
  reset(): void;
}

export function createStatsCounter(): StatsCounter {
  let requests = new Map<string, number>();
  let retries = new Map<string, number>();
  let prompts = new Map<string, number>();
  let faults = new Map<string, number>();
  let batches = { created: 0, requests: 0 };
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  return {
    request(path, retry) {
      bump(requests, path);
      if (retry) bump(retries, path);
    },
    prompt: (hash) => bump(prompts, hash),
    fault: (kind) => bump(faults, kind),
    batch(requests) {
      batches = { created: batches.created + 1, requests: batches.requests + requests };
    },
    snapshot: () => ({
      requests: Object.fromEntries(requests),
      retries: Object.fromEntries(retries),
      byPromptHash: Object.fromEntries(prompts),
      faults: Object.fromEntries(faults),
      batches,
    }),
    reset() {
      requests = new Map();
      retries = new Map();
      prompts = new Map();
      faults = new Map();
      batches = { created: 0, requests: 0 };
    },
  };
}
