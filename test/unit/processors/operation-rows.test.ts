/**
 * processors/core/operation-rows.ts: the swap row mapper (written field by field for speed) gives every
 * column of the `swaps` table, in column order, taken from the right field of the classified swap.
 * Checked on every swap of the shared mainnet traces.
 */
import test from "ava";
import { classify, type SwapLeg } from "../../../dex/classify/index.ts";
import { operationRows } from "../../../processors/core/operation-rows.ts";
import { swaps } from "../../../schemas/facts.ts";
import { listTraceFiles, loadTrace } from "../../helpers/traces.ts";

/**
 * The row by the mapping rules of operation-rows.ts (its header), column by column: `utime` is `now`,
 * `mc_seqno` the anchor's, `{offer,ask}_{kind,master,router_wallet}` flatten the assets, `payout_*` the
 * payout (null without one), every other column is the operation's field of the same name.
 */
function expectedRow(op: SwapLeg, mcSeqno: number): Record<string, unknown> {
  const fields = op as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const column of Object.keys(swaps.columns)) {
    const flat = /^(offer|ask)_(kind|master|router_wallet)$/.exec(column);
    const payout = /^payout_(.+)$/.exec(column);
    const route = /^route_(id|sender|receiver)$/.exec(column);
    if (column === "utime") out[column] = op.now;
    // Without `feedOf` (./feed-columns.ts) the export feed's columns are not known.
    else if (column === "maker" || column === "reserve0_after" || column === "reserve1_after")
      out[column] = null;
    // The USD columns are set by the core's pricer (processors/core/swap-usd.ts), not by the mapper.
    else if (column === "volume_usd" || column === "untracked_volume_usd" || column === "lp_fee_usd")
      out[column] = null;
    else if (route !== null) out[column] = op.route === null ? null : op.route[route[1] as "id"];
    else if (column === "mc_seqno") out[column] = mcSeqno;
    else if (flat !== null)
      out[column] = (op[flat[1] as "offer" | "ask"] as Record<string, unknown>)[flat[2]!];
    else if (payout !== null) {
      out[column] = op.payout === null ? null : (op.payout as Record<string, unknown>)[payout[1]!];
    } else out[column] = fields[column];
  }
  return out;
}

test("swap rows: every swaps column in order, each from its operation field", (t) => {
  let n = 0;
  for (const name of listTraceFiles()) {
    const trace = loadTrace(name);
    const ops = classify(trace.txs, { jettonMasters: trace.masters });
    const legs = ops.filter((o): o is SwapLeg => o.type === "swap");
    const { swaps: rows } = operationRows(legs, { mcSeqnoOf: () => 7, utimeOf: () => 0 });
    t.is(rows.length, legs.length);
    for (const [i, row] of rows.entries()) {
      const op = legs[i] as SwapLeg;
      t.deepEqual(Object.keys(row), Object.keys(swaps.columns), `${name}: column order`);
      t.deepEqual(swaps.schema.parse(row), row, `${name}: the row fits its table`);
      t.deepEqual(row, expectedRow(op, 7), `${name}: values`);
      n++;
    }
  }
  t.true(n >= 5, `only ${n} swaps in the traces`);
});
