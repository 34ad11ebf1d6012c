/**
 * Deduplicated reads of fact tables. Every read here goes through FINAL (or LIMIT BY on a FINAL read),
 * so callers never see the second copy of a re-delivered batch and never write FINAL themselves.
 * Filters are bound parameters typed from the table's column spec; identifiers come only from the spec.
 */
import { z } from "zod";
import { FACT_TABLES, type FactRowOf, type FactTableName, poolStates } from "../../schemas/facts.ts";
import { NonRetryableError } from "../errors.ts";
import type { RowSchema, Store } from "./client.ts";

type Scalar = string | number | bigint | boolean;
type ColumnOf<N extends FactTableName> = keyof FactRowOf<N> & string;

export type FactQuery<N extends FactTableName> = {
  /** column = value, column IN [values], or column IS NULL (null); all conditions ANDed. */
  readonly where?: { readonly [K in ColumnOf<N>]?: Scalar | readonly Scalar[] | null };
  /** Defaults to the table's sorting key. */
  readonly orderBy?: readonly ColumnOf<N>[];
  readonly descending?: boolean;
  readonly limit?: number;
};

/** The type to bind a value of this column as: Nullable stripped; enums compare as strings. */
export function paramType(columnType: string): string {
  const inner = /^Nullable\((.*)\)$/.exec(columnType)?.[1] ?? columnType;
  return inner.startsWith("Enum8(") ? "String" : inner;
}

function whereClause(
  table: FactTableName,
  where: Readonly<Record<string, Scalar | readonly Scalar[] | null | undefined>>,
  params: Record<string, unknown>,
): string {
  const columns: Readonly<Record<string, { ch: string }>> = FACT_TABLES[table].columns;
  const conditions = Object.entries(where).flatMap(([column, value], i) => {
    const spec = columns[column];
    if (spec === undefined) throw new NonRetryableError(`${table} has no column ${column}`);
    if (value === undefined) return [];
    if (value === null) return [`isNull(${column})`];
    const name = `w${i}`;
    params[name] = value;
    const type = paramType(spec.ch);
    return Array.isArray(value)
      ? [`${column} IN {${name}:Array(${type})}`]
      : [`${column} = {${name}:${type}}`];
  });
  return conditions.length === 0 ? "" : ` WHERE ${conditions.join(" AND ")}`;
}

/** Rows of a fact table, one per key (FINAL), parsed back into their `*Row` type. */
export async function selectFacts<N extends FactTableName>(
  store: Store,
  table: N,
  query: FactQuery<N> = {},
): Promise<FactRowOf<N>[]> {
  const spec = FACT_TABLES[table];
  const params: Record<string, unknown> = {};
  const where = whereClause(table, query.where ?? {}, params);
  const order = (query.orderBy ?? spec.orderBy).join(query.descending ? " DESC, " : ", ");
  const limit = query.limit === undefined ? "" : " LIMIT {limit:UInt32}";
  if (query.limit !== undefined) params.limit = query.limit;
  const sql = `SELECT ${Object.keys(spec.columns).join(", ")} FROM ${spec.name} FINAL${where} ORDER BY ${order}${query.descending ? " DESC" : ""}${limit}`;
  // The union of every table's schema narrows to table N's only through the generic: cast once here.
  return store.query(sql, spec.schema as RowSchema<FactRowOf<N>>, params);
}

/** Number of distinct facts (after deduplication) matching `where`. */
export async function countFacts<N extends FactTableName>(
  store: Store,
  table: N,
  where: FactQuery<N>["where"] = {},
): Promise<bigint> {
  const params: Record<string, unknown> = {};
  const sql = `SELECT count() AS n FROM ${FACT_TABLES[table].name} FINAL${whereClause(table, where, params)}`;
  const rows = await store.query(sql, countRow, params);
  return rows[0]?.n ?? 0n;
}

const countRow = z.object({ n: z.string().regex(/^\d+$/).transform(BigInt) });

/** The current state of each pool (the row with the highest lt), optionally only for `pools`. */
export async function latestPoolStates(
  store: Store,
  pools?: readonly string[],
): Promise<FactRowOf<"pool_states">[]> {
  const params: Record<string, unknown> = {};
  const where = pools === undefined ? "" : " WHERE pool IN {pools:Array(String)}";
  if (pools !== undefined) params.pools = pools;
  const sql = `SELECT ${Object.keys(poolStates.columns).join(", ")} FROM pool_states FINAL${where} ORDER BY pool, lt DESC LIMIT 1 BY pool`;
  return store.query(sql, poolStates.schema, params);
}

/**
 * The pool states a restart after block `after` needs to price the swaps it re-releases as before
 * (processors/core `restore({ poolStates })`): each pool's last state at or before `after`, then every state
 * of the blocks after it (few: the trace window and the batches in flight).
 */
export async function poolStatesAround(store: Store, after: number): Promise<FactRowOf<"pool_states">[]> {
  const columns = Object.keys(poolStates.columns).join(", ");
  const [base, recent] = await Promise.all([
    store.query(
      `SELECT ${columns} FROM pool_states FINAL WHERE mc_seqno <= {after:UInt32} ORDER BY pool, lt DESC LIMIT 1 BY pool`,
      poolStates.schema,
      { after },
    ),
    store.query(
      `SELECT ${columns} FROM pool_states FINAL WHERE mc_seqno > {after:UInt32} ORDER BY pool, lt`,
      poolStates.schema,
      { after },
    ),
  ]);
  return [...base, ...recent];
}
