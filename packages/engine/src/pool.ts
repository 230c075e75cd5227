/**
 * Runs `worker` over the items of an async iterable with at most `concurrency` in flight, without
 * reading ahead of what the workers can take (so a million-sample stream is never held in memory).
 */
export async function forEachConcurrent<T>(
  items: AsyncIterable<T>,
  concurrency: number,
  worker: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const iterator = items[Symbol.asyncIterator]();
  let failure: unknown;
  let exhausted = false;
  const next = async (): Promise<IteratorResult<T>> => {
    if (exhausted || failure !== undefined || signal?.aborted) return { done: true, value: undefined };
    const r = await iterator.next();
    if (r.done) exhausted = true;
    return r;
  };
  // Serialise pulls: async generators are not safe to advance concurrently anyway.
  let pulling: Promise<unknown> = Promise.resolve();
  const pull = (): Promise<IteratorResult<T>> => {
    const p = pulling.then(next);
    pulling = p.catch(() => undefined);
    return p;
  };
  const lane = async (): Promise<void> => {
    for (;;) {
      try {
        const r = await pull();
        if (r.done) return;
        await worker(r.value);
      } catch (err) {
        failure ??= err;
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
  if (failure !== undefined) {
    await iterator.return?.();
    throw failure;
  }
}
