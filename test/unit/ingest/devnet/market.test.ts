/**
 * Devnet acceptance: the classifier, applied to everything the devnet emitted, gives back exactly the
 * contracts' ground truth (field by field, nothing extra), over thousands of operations and several
 * seeds; every emitted message decodes; the market really exercised every action kind.
 */
import test from "ava";
import { classify } from "../../../../dex/classify/index.ts";
import { runDevnet } from "../../../helpers/devnet-run.ts";
import { truthMismatches, undecodedMessages } from "../../../helpers/truth.ts";

for (const seed of [11, 12]) {
  test(`seed ${seed}: classifier = ground truth, every message decodes`, async (t) => {
    const run = await runDevnet({ seed, blocks: 70, actionsPerBlock: 40 });
    const ops = classify(run.txs);
    t.deepEqual(truthMismatches(ops, run.truth, { exhaustive: true }), []);
    t.deepEqual(undecodedMessages(run.txs), []);
    t.true(run.truth.length > 1_500, `only ${run.truth.length} operations`);
    const kinds = new Set(run.truth.map((r) => r.type));
    t.deepEqual([...kinds].sort(), [
      "liquidity_mint",
      "liquidity_provide",
      "liquidity_withdraw",
      "referral_payment",
      "swap",
      "vault_deposit",
      "vault_withdrawal",
    ]);
    const counts = run.devnet.market!.counts;
    for (const kind of [
      "swap",
      "swap_referral",
      "multi_hop",
      "slippage_fail",
      "expired",
      "arbitrage",
      "provide",
    ] as const) {
      t.true(counts[kind] > 0, `the market never did ${kind}`);
    }
    t.true(
      ops.some((o) => o.type === "swap_route"),
      "no multi-hop route was classified",
    );
  });
}
