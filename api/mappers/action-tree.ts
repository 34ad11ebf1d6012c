/**
 * Classified operations → the action tree of api.md §6.6. One action per user-level DEX operation:
 * swap legs (`swap`, chained by `prev_index` along a multi-hop route), provides (`provide_liquidity`, with
 * the pool's mint as a `cb_add_liquidity` effect), burns (`jetton_burn`), LpAccount refunds
 * (`refund_liquidity`), vault withdrawals (`withdraw_fee`), and `other` for what the classifier could not
 * explain. Referral payments and vault deposits are parts of their swap and are not separate actions.
 * An operation whose deciding transaction is not in the tree yet is `pending`.
 */
import type {
  LiquidityMint,
  LiquidityProvide,
  LiquidityWithdraw,
  Operation,
  SwapLeg,
  UnknownOperation,
  VaultWithdrawal,
} from "../../dex/classify/index.ts";
import { JETTON_OP } from "../../dex/codecs/jetton/opcodes.ts";
import { STONFI_V1_OP } from "../../dex/codecs/stonfi/v1/opcodes.ts";
import { STONFI_V2_OP, STONFI_V2_VAULT_OP } from "../../dex/codecs/stonfi/v2/opcodes.ts";
import type { ActionDto, ActionStatusDto, ActionTreeDto } from "../../schemas/api/transactions.ts";
import type { ActionTree } from "../queries/transactions.ts";
import { compact, dec, friendly } from "./common.ts";
import { rawTxIdDto, txIdDto } from "./transactions.ts";

type Payload = ActionDto["tx_payload"];
type Fields = Record<string, string | number | boolean>;

/** u64 values are JSON numbers on this wire (api.md §6.6) while they fit one exactly. */
const u64 = (v: bigint): number | string => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString());
const addr = (raw: string | null | undefined) => (raw ? friendly(raw) : undefined);

function status(
  op: { success: boolean | null; tx_hash: string; lt: bigint },
  account: string | null,
  exitCode: string,
  fields: Fields,
): ActionStatusDto {
  if (op.success === null) return { "@type": "pending" };
  return {
    "@type": "completed",
    tx_id: account
      ? txIdDto({ hash: op.tx_hash, lt: op.lt, account })
      : { lt: Number(op.lt), hash: op.tx_hash },
    success: op.success,
    exit_code: exitCode,
    ...compact(fields),
  };
}

function swapAction(op: SwapLeg): ActionDto {
  const refFields: Fields = op.referral_fee ? { ref_ask_amount: dec(op.referral_fee) } : {};
  return compact({
    "@type": "swap",
    contract_major_version: op.dex,
    destination: addr(op.pool),
    tx_payload: compact({
      opcode: op.dex === "v1" ? STONFI_V1_OP.swap : STONFI_V2_OP.swap,
      query_id: u64(op.query_id),
      ask_jetton_wallet_address: addr(op.ask.router_wallet),
      min_ask_amount: op.min_out === null ? undefined : dec(op.min_out),
      referral_address: addr(op.referrer),
      ...(op.dex === "v1"
        ? { user_wallet_address: addr(op.sender) }
        : { receiver_address: addr(op.receiver) }),
    }) as Payload,
    status: status(op, op.pool, op.exit_name, {
      offer_jetton_wallet: addr(op.offer.router_wallet) ?? "",
      offer_jetton_amount: dec(op.amount_in),
      ask_jetton_wallet: addr(op.ask.router_wallet) ?? "",
      ask_jetton_amount: dec(op.amount_out ?? 0n),
      is_reversed: false,
      ...refFields,
    }),
  });
}

function mintEffect(m: LiquidityMint) {
  const exit = m.lp_amount === null ? "add_liquidity_ok" : "mint_lp_ok";
  return {
    "@type": "cb_add_liquidity",
    status: status(m, m.pool, exit, {
      lp_out: dec(m.lp_amount ?? 0n),
      amount0_out: dec(m.amount0),
      amount1_out: dec(m.amount1),
    }),
  };
}

function provideAction(op: LiquidityProvide, mints: readonly LiquidityMint[]): ActionDto {
  const mint = mints.find((m) => m.pool === op.pool && m.query_id === op.query_id);
  return compact({
    "@type": "provide_liquidity",
    contract_major_version: op.dex,
    destination: addr(op.pool),
    tx_payload: compact({
      opcode: op.dex === "v1" ? STONFI_V1_OP.provide_lp : STONFI_V2_OP.provide_lp,
      query_id: u64(op.query_id),
      router_wallet_address: addr(op.asset1.router_wallet),
      min_lp_out: op.min_lp_out === null ? undefined : dec(op.min_lp_out),
    }) as Payload,
    status: status(op, op.pool, op.exit_name, { amount0_out: dec(op.amount0), amount1_out: dec(op.amount1) }),
    effects: mint ? [mintEffect(mint)] : undefined,
  });
}

function withdrawAction(op: LiquidityWithdraw): ActionDto {
  const burn = op.kind === "burn";
  const opcode = burn ? JETTON_OP.burn : op.dex === "v1" ? STONFI_V1_OP.refund_me : STONFI_V2_OP.refund_me;
  return compact({
    "@type": burn ? "jetton_burn" : "refund_liquidity",
    contract_major_version: op.dex,
    destination: addr(op.pool),
    tx_payload: compact({
      opcode,
      query_id: u64(op.query_id),
      amount: op.lp_amount === null ? undefined : dec(op.lp_amount),
    }) as Payload,
    status: status(op, op.pool, burn ? "burn_ok" : "refund_ok", {
      [burn ? "from_address" : "user_address"]: addr(op.owner) ?? "",
      amount0_out: dec(op.amount0),
      amount1_out: dec(op.amount1),
    }),
  });
}

function vaultAction(op: VaultWithdrawal): ActionDto {
  return {
    "@type": "withdraw_fee",
    contract_major_version: "v2",
    destination: friendly(op.vault),
    tx_payload: { opcode: STONFI_V2_VAULT_OP.withdraw_fee, query_id: u64(op.query_id) },
    status: status(op, op.vault, "ok", {
      amount_out: dec(op.amount),
      token_address: addr(op.asset.master) ?? "",
      to_address: addr(op.owner) ?? "",
    }),
  };
}

function otherAction(op: UnknownOperation, tree: ActionTree): ActionDto {
  const tx = tree.txs.find((t) => t.hash === op.tx_hash);
  const st: ActionStatusDto = tx
    ? {
        "@type": "completed",
        tx_id: rawTxIdDto(tx),
        success: tx.compute.success && !tx.aborted,
        exit_code: String(tx.compute.exit_code ?? 0),
      }
    : { "@type": "pending" };
  return { "@type": "other", tx_payload: { unknown: { opcode: op.opcode ?? 0 } }, status: st };
}

/** Index of the previous hop of each swap leg, from the multi-hop routes. */
function previousLegs(ops: readonly Operation[]): Map<string, string> {
  const prev = new Map<string, string>();
  for (const op of ops) {
    if (op.type !== "swap_route") continue;
    for (let i = 1; i < op.legs.length; i++) prev.set(op.legs[i] as string, op.legs[i - 1] as string);
  }
  return prev;
}

export function actionTreeDto(tree: ActionTree): ActionTreeDto {
  const ops = tree.operations;
  const mints = ops.filter((o): o is LiquidityMint => o.type === "liquidity_mint");
  const actions: { id: string; action: ActionDto }[] = [];
  for (const op of ops) {
    const action =
      op.type === "swap"
        ? swapAction(op)
        : op.type === "liquidity_provide"
          ? provideAction(op, mints)
          : op.type === "liquidity_withdraw"
            ? withdrawAction(op)
            : op.type === "vault_withdrawal"
              ? vaultAction(op)
              : op.type === "unknown" || op.type === "malformed"
                ? otherAction(op, tree)
                : null;
    if (action) actions.push({ id: op.id, action });
  }
  const prev = previousLegs(ops);
  const index = new Map(actions.map((a, i) => [a.id, i]));
  return {
    tx_chain_completed: tree.completed,
    initial_tx_id: rawTxIdDto(tree.root),
    actions: actions.map(({ id, action }) => {
      const p = prev.get(id);
      const at = p === undefined ? undefined : index.get(p);
      return at === undefined ? action : { ...action, prev_index: at };
    }),
  };
}
