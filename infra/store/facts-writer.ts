/**
 * Writes one processed batch: ONE insert per fact table that has rows, then the cursor row (STYLE
 * practice 8). ClickHouse has no multi-table transaction, so the cursor goes last: a stored cursor
 * implies its facts are stored. A crash in between leaves the old cursor, the batch is re-delivered and
 * re-written, and ReplacingMergeTree's deterministic keys make the second copy vanish on read.
 *
 * Between the facts and the cursor, the rollup buckets the facts touch are rewritten from the
 * deduplicated facts (./rollups.ts): a stored cursor also implies the rollups of its facts are stored.
 */
import {
  type CursorRow,
  cursor,
  FACT_TABLES,
  type FactRows,
  type FactTableName,
} from "../../schemas/facts.ts";
import type { Store, TableRows } from "./client.ts";
import { dirtyBuckets, isClean, refreshRollups } from "./rollups.ts";

export type { CursorRow };
/** Where a batch leaves its partition; the writer stamps `written_at`. */
export type CursorPosition = Omit<CursorRow, "written_at">;

/** Consumer group of the facts processor; the cursor of other consumers lives beside it. */
export const DEFAULT_CONSUMER = "tondex.processor";

export type WriteResult = {
  /** Rows inserted per table (tables without rows are absent). */
  readonly rows: Readonly<Partial<Record<FactTableName, number>>>;
  readonly total: number;
};

export async function writeBatch(
  store: Store,
  rows: FactRows,
  position: CursorPosition,
  options: { now?: () => number } = {},
): Promise<WriteResult> {
  const counts: Partial<Record<FactTableName, number>> = {};
  const inserts: TableRows[] = [];
  let total = 0;
  for (const name of Object.keys(FACT_TABLES) as FactTableName[]) {
    const tableRows = rows[name];
    if (tableRows === undefined || tableRows.length === 0) continue;
    inserts.push({ table: name, rows: tableRows });
    counts[name] = tableRows.length;
    total += tableRows.length;
  }
  const writtenAt = Math.floor((options.now ?? Date.now)() / 1000);
  const cursorRow = { table: cursor.name, rows: [{ ...position, written_at: writtenAt }] };
  const dirty = dirtyBuckets(rows);
  if (isClean(dirty)) {
    // In order, stopping at the first failure: the cursor is written only after every fact.
    await store.insertAll([...inserts, cursorRow]);
  } else {
    await store.insertAll(inserts);
    await refreshRollups(store, dirty);
    await store.insertAll([cursorRow]);
  }
  return { rows: counts, total };
}

export type CursorState = {
  /** Lowest processed mc_seqno over the partitions (where every partition has caught up); null: none yet. */
  readonly mcSeqno: number | null;
  readonly partitions: readonly CursorRow[];
};

const cursorColumns = Object.keys(cursor.columns).join(", ");

export async function readCursor(store: Store, consumer: string = DEFAULT_CONSUMER): Promise<CursorState> {
  const partitions = await store.query(
    `SELECT ${cursorColumns} FROM cursor FINAL WHERE consumer = {consumer:String} ORDER BY partition_id`,
    cursor.schema,
    { consumer },
  );
  const mcSeqno = partitions.length === 0 ? null : Math.min(...partitions.map((p) => p.mc_seqno));
  return { mcSeqno, partitions };
}
