/**
 * Progress of a long replay: on a terminal one line redrawn in place (bar, blocks/s, ETA); otherwise a
 * plain line every `everyMs`, so logs stay readable.
 */
export type Progress = { tick(mcSeqno: number, transactions: number): void; done(): void };

export function createProgress(options: {
  write: (text: string) => void;
  tty: boolean;
  total: number | null;
  first: number;
  now?: () => number;
  everyMs?: number;
}): Progress {
  const now = options.now ?? Date.now;
  const every = options.everyMs ?? (options.tty ? 200 : 2_000);
  const start = now();
  let last = 0;
  let blocks = 0;
  let txs = 0;
  let mc = options.first;
  const line = (): string => {
    const secs = Math.max((now() - start) / 1000, 1e-3);
    const rate = blocks / secs;
    const parts = [
      `block ${mc}`,
      `${blocks} blocks`,
      `${txs} txs`,
      `${rate.toFixed(0)} blocks/s`,
      `${(txs / secs).toFixed(0)} tx/s`,
    ];
    if (options.total !== null && options.total > options.first) {
      const share = Math.min(1, (mc - options.first) / (options.total - options.first));
      const eta = rate > 0 ? (options.total - mc) / rate : Number.POSITIVE_INFINITY;
      const width = 24;
      const bar = `[${"#".repeat(Math.round(share * width)).padEnd(width, ".")}]`;
      parts.unshift(`${bar} ${(share * 100).toFixed(1)}%`);
      parts.push(`ETA ${Number.isFinite(eta) ? `${eta.toFixed(0)}s` : "?"}`);
    }
    return parts.join("  ");
  };
  return {
    tick(mcSeqno, transactions) {
      blocks++;
      txs += transactions;
      mc = mcSeqno;
      const t = now();
      if (t - last < every) return;
      last = t;
      options.write(options.tty ? `\r${line()}\u001b[K` : `${line()}\n`);
    },
    done() {
      options.write(options.tty ? `\r${line()}\u001b[K\n` : `${line()}\n`);
    },
  };
}
