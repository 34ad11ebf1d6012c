/**
 * Small async-generator stages (STYLE practice 9): each is `AsyncIterable<A> → AsyncIterable<B>`, knows
 * nothing of Kafka or ClickHouse, and is tested with in-memory iterables. A bus adapter is just the first
 * and the last stage. Every stage closes its source when its own consumer stops early.
 */

export type Stage<A, B> = (source: AsyncIterable<A>) => AsyncIterable<B>;

export function pipe<A>(source: AsyncIterable<A>): AsyncIterable<A>;
export function pipe<A, B>(source: AsyncIterable<A>, s1: Stage<A, B>): AsyncIterable<B>;
export function pipe<A, B, C>(source: AsyncIterable<A>, s1: Stage<A, B>, s2: Stage<B, C>): AsyncIterable<C>;
export function pipe<A, B, C, D>(
  source: AsyncIterable<A>,
  s1: Stage<A, B>,
  s2: Stage<B, C>,
  s3: Stage<C, D>,
): AsyncIterable<D>;
export function pipe(
  source: AsyncIterable<unknown>,
  ...stages: Stage<unknown, unknown>[]
): AsyncIterable<unknown> {
  return stages.reduce((it, stage) => stage(it), source);
}

const TIMEOUT = Symbol("timeout");

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMEOUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMEOUT), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Groups items into arrays of at most `maxSize`, emitting a partial batch `maxMs` after its first item
 * arrived (so a quiet source never holds an item longer than that). Never emits an empty batch.
 */
export function batchBy<T>(options: { maxSize: number; maxMs: number; now?: () => number }): Stage<T, T[]> {
  const now = options.now ?? Date.now;
  return async function* (source) {
    const it = source[Symbol.asyncIterator]();
    let pending: Promise<IteratorResult<T>> | null = null;
    let batch: T[] = [];
    let deadline = 0;
    try {
      while (true) {
        pending ??= it.next();
        const result = batch.length === 0 ? await pending : await withTimeout(pending, deadline - now());
        if (result === TIMEOUT) {
          yield batch;
          batch = [];
          continue;
        }
        pending = null;
        if (result.done) break;
        if (batch.length === 0) deadline = now() + options.maxMs;
        batch.push(result.value);
        if (batch.length >= options.maxSize) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    } finally {
      if (pending !== null) {
        // A next() is still running: close the source without waiting for it (it may never settle).
        pending.catch(() => {});
        void it.return?.()?.catch(() => {});
      } else await it.return?.();
    }
  };
}

/** Runs the source up to `size` items ahead of the consumer, so a slow consumer and producer overlap. */
export function buffer<T>(size: number): Stage<T, T> {
  return async function* (source) {
    const queue: T[] = [];
    let finished = false;
    let failure: { error: unknown } | null = null;
    let stopped = false;
    let wakeConsumer: () => void = () => {};
    let wakeProducer: () => void = () => {};
    const pump = async () => {
      try {
        for await (const item of source) {
          queue.push(item);
          wakeConsumer();
          while (queue.length >= size && !stopped) {
            await new Promise<void>((r) => {
              wakeProducer = r;
            });
          }
          if (stopped) break;
        }
      } catch (error) {
        failure = { error };
      } finally {
        finished = true;
        wakeConsumer();
      }
    };
    void pump();
    try {
      while (true) {
        if (queue.length > 0) {
          const item = queue.shift() as T;
          wakeProducer();
          yield item;
        } else if (failure !== null) throw (failure as { error: unknown }).error;
        else if (finished) return;
        else {
          await new Promise<void>((r) => {
            wakeConsumer = r;
          });
        }
      }
    } finally {
      stopped = true;
      wakeProducer();
    }
  };
}

export type StageObserver = {
  items(stage: string, count: number): void;
  seconds(stage: string, seconds: number): void;
};

/** Counts what `stage` emits (`count` per output, default 1) and the time spent waiting for each output. */
export function withMetrics<A, B>(
  name: string,
  stage: Stage<A, B>,
  observer: StageObserver,
  count: (output: B) => number = () => 1,
): Stage<A, B> {
  return async function* (source) {
    let started = performance.now();
    for await (const output of stage(source)) {
      observer.seconds(name, (performance.now() - started) / 1000);
      observer.items(name, count(output));
      yield output;
      started = performance.now();
    }
  };
}

/** Applies `fn` to every batch, in order, one at a time. */
export function mapBatches<A, B>(fn: (batch: A) => B | Promise<B>): Stage<A, B> {
  return async function* (source) {
    for await (const batch of source) yield await fn(batch);
  };
}
