/**
 * Maps tondex operations to the action shapes of toncenter's indexer test cases, so the recorded traces'
 * `expected` lists (test/vectors/mainnet-traces/FORMAT.md) can be checked. Only toncenter's conventions
 * live here, never per-file cases:
 * - `dex` is "stonfi" (v1) / "stonfi_v2"; TON is `asset: null` in v2 but the pTON v1 master in v1;
 * - a failed swap's outgoing transfer is the refund (offer asset); TON legs have no jetton wallets;
 * - `destination_secondary` is the router's out wallet in v1 and the receiver's wallet in v2;
 * - an action's `start_lt` is the lowest created_lt of its transactions' inbound messages;
 * - v1 referral payouts are `jetton_transfer`, v2 vault deposits `call_contract` (deposit_ref_fee).
 */
import { Cell } from "@ton/core";
import type { Asset, Dex, Operation, SwapLeg } from "../../../../dex/classify/types.ts";
import { decodeBody } from "../../../../dex/codecs/index.ts";
import type { RawTransaction } from "../../../../schemas/raw-transaction.ts";
import { hexToBase64 } from "../../../../schemas/trace-file.ts";

export type Action = Record<string, unknown> & { type: string };

const DEPOSIT_REF_FEE = 0x0490f09b;

function assetOf(a: Asset, dex: Dex): string | null {
  if (a.kind === "ton") return dex === "v1" ? a.master : null;
  return a.master ?? a.router_wallet;
}

function span(txs: Map<string, RawTransaction>, hashes: string[]) {
  const list = hashes.flatMap((h) => txs.get(h) ?? []);
  const lts = list.map((t) => BigInt(t.lt));
  const created = list.flatMap((t) => (t.in_msg?.created_lt ? [BigInt(t.in_msg.created_lt)] : []));
  const nows = list.map((t) => t.now);
  const min = (xs: bigint[]) => (xs.length ? xs.reduce((a, b) => (b < a ? b : a)) : null);
  const max = (xs: bigint[]) => (xs.length ? xs.reduce((a, b) => (b > a ? b : a)) : null);
  return {
    tx_hashes: hashes.map(hexToBase64),
    accounts: [...new Set(list.map((t) => t.account))],
    start_lt: (min(created) ?? min(lts))?.toString() ?? null,
    end_lt: max(lts)?.toString() ?? null,
    start_utime: nows.length ? Math.min(...nows) : null,
    end_utime: nows.length ? Math.max(...nows) : null,
  };
}

function incoming(first: SwapLeg) {
  return {
    amount: first.amount_in.toString(),
    asset: assetOf(first.offer, first.dex),
    source: first.sender,
    source_jetton_wallet: first.sender_wallet,
    destination: first.router,
    destination_jetton_wallet: first.offer.router_wallet,
  };
}

function outgoing(last: SwapLeg) {
  const refund = last.success !== true && last.amount_out === null;
  const asset = refund ? last.offer : last.ask;
  const ton = asset.kind === "ton";
  return {
    amount: (last.payout?.amount ?? last.amount_out ?? 0n).toString(),
    asset: assetOf(asset, last.dex),
    source: last.router,
    source_jetton_wallet: ton ? null : (last.payout?.router_wallet ?? null),
    destination: last.payout?.to ?? last.receiver,
    destination_jetton_wallet: ton ? null : (last.payout?.receiver_wallet ?? null),
  };
}

function jettonSwap(
  legs: SwapLeg[],
  hashes: string[],
  success: boolean | null,
  txs: Map<string, RawTransaction>,
): Action {
  const first = legs[0]!;
  const last = legs[legs.length - 1]!;
  const inc = incoming(first);
  const out = outgoing(last);
  const s = span(txs, hashes);
  // toncenter counts the routers' wallets of both sides as involved, even when one has no transaction.
  const wallets = legs.flatMap((l) => [l.offer.router_wallet, l.ask.router_wallet].flatMap((w) => w ?? []));
  return {
    type: "jetton_swap",
    ...s,
    accounts: [...new Set([...s.accounts, ...wallets])],
    success,
    asset: inc.asset,
    asset2: assetOf(last.ask, last.dex),
    source: first.sender,
    source_secondary: first.sender_wallet,
    destination: out.destination,
    destination_secondary:
      last.dex === "v1" ? (last.payout?.router_wallet ?? null) : out.destination_jetton_wallet,
    jetton_swap_data: {
      dex: first.dex === "v1" ? "stonfi" : "stonfi_v2",
      sender: first.sender,
      dex_incoming_transfer: inc,
      dex_outgoing_transfer: out,
      peer_swaps:
        legs.length < 2
          ? []
          : legs.map((l) => ({
              amount_in: l.amount_in.toString(),
              asset_in: assetOf(l.offer, l.dex),
              amount_out: (l.amount_out ?? 0n).toString(),
              asset_out: assetOf(l.ask, l.dex),
            })),
    },
  };
}

/** The router's payout transfer of a payout, decoded (for jetton_transfer_data). */
function transferData(txs: Map<string, RawTransaction>, routerTx: string | null) {
  const tx = routerTx ? txs.get(routerTx) : undefined;
  for (const m of tx?.out_msgs ?? []) {
    const body = decodeBody(Cell.fromBase64(m.body_boc));
    if (body.kind !== "jetton.transfer") continue;
    const fp = body.forwardPayload;
    return {
      response_destination: body.responseDestination?.toRawString().toUpperCase() ?? null,
      forward_payload: fp ? fp.payload.toBoc({ idx: false, crc32: true }).toString("base64") : null,
    };
  }
  return {};
}

/** toncenter-style actions for the STON.fi operations of one batch. */
export function toToncenterActions(ops: Operation[], rawTxs: RawTransaction[]): Action[] {
  const txs = new Map(rawTxs.map((t) => [t.hash, t]));
  const legs = new Map(ops.flatMap((op) => (op.type === "swap" ? [[op.id, op] as const] : [])));
  const inRoute = new Set(ops.flatMap((op) => (op.type === "swap_route" ? op.legs : [])));
  const actions: Action[] = [];
  for (const op of ops) {
    if (op.type === "swap_route") {
      const routeLegs = op.legs.flatMap((id) => legs.get(id) ?? []);
      actions.push(jettonSwap(routeLegs, op.tx_hashes, op.success, txs));
    } else if (op.type === "swap" && !inRoute.has(op.id)) {
      actions.push(jettonSwap([op], op.tx_hashes, op.success, txs));
    } else if (op.type === "referral_payment") {
      const ton = op.asset.kind === "ton";
      actions.push({
        type: "jetton_transfer",
        ...span(txs, op.tx_hashes),
        parent_action_id: null,
        source: op.router,
        destination: op.payout?.to ?? op.referrer,
        source_secondary: ton ? null : (op.payout?.router_wallet ?? null),
        destination_secondary: ton ? null : (op.payout?.receiver_wallet ?? null),
        amount: op.amount.toString(),
        asset: assetOf(op.asset, op.dex),
        jetton_transfer_data: transferData(txs, op.payout?.tx_hash ?? null),
      });
    } else if (op.type === "vault_deposit") {
      actions.push({
        type: "call_contract",
        ...span(txs, [op.tx_hash]),
        opcode: DEPOSIT_REF_FEE,
        source: op.router,
        destination: op.vault,
      });
    }
  }
  return actions;
}
