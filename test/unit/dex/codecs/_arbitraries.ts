// fast-check arbitraries for every codec record: derived from the layout for layout-based codecs, written
// out for the hand-written ones. Not a test file.
import fc from "fast-check";
import type { Codec } from "../../../../dex/codecs/common.ts";
import type { KnownBody, KnownPayload } from "../../../../dex/codecs/index.ts";
import type { Layout, LayoutCodec, Leaf } from "../../../../dex/codecs/layout.ts";
import type { PoolParams } from "../../../../dex/codecs/stonfi/v2/pool-params.ts";
import { arbAddress, arbCell, arbCoins, arbUint } from "./_helpers.ts";

type Arb = fc.Arbitrary<unknown>;

function arbLeaf(leaf: Leaf): Arb {
  switch (leaf) {
    case "addr":
      return arbAddress;
    case "coins":
      return arbCoins;
    case "u8":
      return fc.integer({ min: 0, max: 0xff });
    case "u16":
      return fc.integer({ min: 0, max: 0xffff });
    case "u32":
      return fc.integer({ min: 0, max: 0xffffffff });
    case "u64":
      return arbUint(64);
    case "u128":
      return arbUint(128);
    case "bool":
      return fc.boolean();
    case "ref":
      return arbCell;
    case "maybeRef":
      return fc.option(arbCell);
  }
}

function fieldArbs(layout: Layout, out: Record<string, Arb>): Record<string, Arb> {
  for (const [name, f] of Object.entries(layout)) {
    if (typeof f === "string") out[name] = arbLeaf(f);
    else fieldArbs(f.ref, out);
  }
  return out;
}

export function isLayoutCodec(c: object): c is LayoutCodec<{ kind: string }> {
  return "layout" in c;
}

function fromLayout(c: LayoutCodec<{ kind: string }>): Arb {
  const fields: Record<string, Arb> = { kind: fc.constant(c.kind) };
  if (c.hasQueryId) fields.queryId = arbUint(64);
  return fc.record(fieldArbs(c.layout, fields));
}

const queryId = arbUint(64);
const either = fc.option(fc.record({ inRef: fc.boolean(), payload: arbCell }));
const exitCode = fc.oneof(
  fc.integer({ min: 0, max: 0xffffffff }),
  fc.constantFrom(0xc64370e5, 0x0a0dbdcb, 9),
);
const withRef = fc
  .boolean()
  .chain((hasRef) =>
    fc.record({ hasRef: fc.constant(hasRef), refAddress: hasRef ? arbAddress : fc.constant(null) }),
  );
const poolParams: fc.Arbitrary<PoolParams> = fc.oneof(
  fc.record({ poolType: fc.constant("stableswap" as const), amp: fc.integer({ min: 0, max: 0xffffffff }) }),
  fc.record({
    poolType: fc.constant("weighted_const_product" as const),
    w: arbUint(128),
    sideWallet: arbAddress,
  }),
  fc.record({
    poolType: fc.constant("weighted_stableswap" as const),
    amp: arbUint(128),
    rate: arbUint(128),
    w: arbUint(128),
    sideWallet: arbAddress,
    rateSetter: arbAddress,
  }),
);

const rec = (kind: string, fields: Record<string, Arb>): Arb =>
  fc.record({ kind: fc.constant(kind), ...fields });

const HAND: Record<string, Arb> = {
  "jetton.transfer": rec("jetton.transfer", {
    queryId,
    amount: arbCoins,
    destination: arbAddress,
    responseDestination: arbAddress,
    customPayload: fc.option(arbCell),
    forwardTonAmount: arbCoins,
    forwardPayload: either,
  }),
  "jetton.internal_transfer": rec("jetton.internal_transfer", {
    queryId,
    amount: arbCoins,
    from: arbAddress,
    responseAddress: arbAddress,
    forwardTonAmount: arbCoins,
    forwardPayload: either,
  }),
  "jetton.transfer_notification": rec("jetton.transfer_notification", {
    queryId,
    amount: arbCoins,
    sender: arbAddress,
    forwardPayload: either,
  }),
  "jetton.take_wallet_address": fc
    .tuple(queryId, arbAddress, fc.boolean(), arbAddress)
    .map(([q, walletAddress, includesOwner, owner]) => ({
      kind: "jetton.take_wallet_address",
      queryId: q,
      walletAddress,
      includesOwner,
      ownerAddress: includesOwner ? owner : null,
    })),
  "pton.v2.ton_transfer": rec("pton.v2.ton_transfer", {
    queryId,
    tonAmount: arbCoins,
    refundAddress: arbAddress,
    forwardPayload: either,
  }),
  "stonfi.v1.swap": fc
    .tuple(
      rec("stonfi.v1.swap", {
        queryId,
        toAddress: arbAddress,
        senderWallet: arbAddress,
        jettonAmount: arbCoins,
        minOut: arbCoins,
        fromUser: arbAddress,
      }),
      withRef,
    )
    .map(([a, b]) => ({ ...(a as object), ...b })),
  "stonfi.v1.swap_payload": fc
    .tuple(
      rec("stonfi.v1.swap_payload", { tokenWallet1: arbAddress, minOut: arbCoins, toAddress: arbAddress }),
      withRef,
    )
    .map(([a, b]) => ({ ...(a as object), ...b })),
  "stonfi.v1.pay_to": rec("stonfi.v1.pay_to", {
    queryId,
    owner: arbAddress,
    exitCode,
    amount0Out: arbCoins,
    token0: arbAddress,
    amount1Out: arbCoins,
    token1: arbAddress,
  }),
  "stonfi.v1.exit_code_payload": rec("stonfi.v1.exit_code_payload", { exitCode }),
  "stonfi.v2.exit_code_payload": rec("stonfi.v2.exit_code_payload", { exitCode }),
  "stonfi.v2.set_params": rec("stonfi.v2.set_params", {
    queryId,
    params: poolParams,
    jettonWallet0: arbAddress,
    jettonWallet1: arbAddress,
    excessesAddress: arbAddress,
  }),
  "stonfi.v2.internal_set_params": rec("stonfi.v2.internal_set_params", {
    queryId,
    excessesAddress: arbAddress,
    params: poolParams,
  }),
};

/** An arbitrary record for `codec`, or undefined when none is defined (the coverage test fails then). */
export function arbitraryFor(codec: Codec<KnownBody> | Codec<KnownPayload>): Arb | undefined {
  if (isLayoutCodec(codec)) return fromLayout(codec);
  return HAND[codec.kind];
}
