/**
 * Classified operations → the action tree of api.md §6.6. One action per user-level DEX operation:
 * swap legs (`swap`, chained by `prev_index` along a multi-hop route), provides (`provide_liquidity`, with
 * the pool's mint as a `cb_add_liquidity` effect), burns (`jetton_burn`), LpAccount refunds
 * (`refund_liquidity`), vault withdrawals (`withdraw_fee`), and `other` for what the classifier could not
 * explain. Referral payments and vault deposits are parts of their swap and are not separate actions.
 * An operation whose deciding transaction is not in the tree yet is `pending`. A completed status carries
 * exactly the result fields api.md §6.6 lists for its action type and exit code, and omits what is not
 * known. A v2 referral (paid to a vault) has no result field in §6.6's `swap_ok`: it is not rendered.
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
import type { ActionTree } from "../views.ts";
import { compact, dec, friendly } from "./common.ts";
import { rawTxIdDto, txIdDto } from "./transactions.ts";

type Payload = ActionDto["tx_payload"];
type Fields = Record<string, string | number | boolean | undefined>;

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

/** v1 refunds named by the pool's `pay_to` report the refunded jettons as `ask_*` (api.md §6.6). */
const ASK_NAMED_REFUNDS: ReadonlySet<string> = new Set(["swap_refund_no_liq", "swap_refund_reserve_err"]);

/**
 * The result fields of a completed swap leg (api.md §6.6), by exit code: `swap_ok` names both sides;
 * a v1 swap whose pool also paid the referrer (`pay_to` with `swap_ok_ref`, even of 0) is `swap_ok_ref`
 * with the `ref_*` fields; a refund names the refunded wallet and amount, as `ask_*` for the two v1 pool
 * refunds and `offer_*` for every other. Unknown values are absent.
 */
function swapResult(op: SwapLeg): { exit: string; fields: Fields } {
  const offerWallet = addr(op.offer.router_wallet);
  const askWallet = addr(op.ask.router_wallet);
  if (op.amount_out !== null) {
    const fields: Fields = compact({
      ask_jetton_wallet: askWallet,
      ask_jetton: addr(op.ask.master),
      ask_jetton_amount: dec(op.amount_out),
      offer_jetton_wallet: offerWallet,
      offer_jetton: addr(op.offer.master),
      offer_jetton_amount: dec(op.amount_in),
      is_reversed: false,
    });
    if (op.dex !== "v1" || op.referral_fee === null) return { exit: op.exit_name, fields };
    const ref = compact({
      ref_offer_jetton_wallet: offerWallet,
      ref_ask_jetton_wallet: askWallet,
      ref_ask_amount: dec(op.referral_fee),
    });
    return { exit: "swap_ok_ref", fields: { ...fields, ...ref } };
  }
  const refund = op.payout;
  if (refund === null) return { exit: op.exit_name, fields: {} };
  const wallet = addr(refund.router_wallet);
  const fields: Fields = ASK_NAMED_REFUNDS.has(op.exit_name)
    ? compact({ ask_jetton_wallet: wallet, ask_amount: dec(refund.amount) })
    : compact({ offer_jetton_wallet: wallet, offer_amount: dec(refund.amount) });
  return { exit: op.exit_name, fields };
}

function swapAction(op: SwapLeg): ActionDto {
  const result = swapResult(op);
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
    status: status(op, op.pool, result.exit, result.fields),
  });
}

/**
 * The pool's answer to an LpAccount's `cb_add_liquidity` (api.md §6.6): `mint_lp_ok` with the LP minted,
 * or `add_liquidity_ok` with the amounts the LpAccount forwarded when no mint is known.
 */
function mintEffect(m: LiquidityMint) {
  const minted = m.lp_amount !== null;
  return {
    "@type": "cb_add_liquidity",
    status: minted
      ? status(m, m.pool, "mint_lp_ok", { lp_out: dec(m.lp_amount ?? 0n) })
      : status(m, m.pool, "add_liquidity_ok", { amount0_out: dec(m.amount0), amount1_out: dec(m.amount1) }),
  };
}

/** A liquidity or vault action the contract refused: the message bounced (api.md §6.6). */
const BOUNCE = "bounce";

function provideAction(op: LiquidityProvide, mints: readonly LiquidityMint[]): ActionDto {
  const mint = mints.find((m) => m.pool === op.pool && m.query_id === op.query_id);
  // The pool forwarded the deposit to the LpAccount (classifier exit "ok"): `provide_liquidity_ok`.
  const ok = op.success === true && op.exit_name === "ok";
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
    status: ok
      ? status(op, op.pool, "provide_liquidity_ok", {
          amount0_out: dec(op.amount0),
          amount1_out: dec(op.amount1),
          min_lp_out: op.min_lp_out === null ? undefined : dec(op.min_lp_out),
        })
      : status(op, op.pool, op.exit_name, {}),
    effects: mint ? [mintEffect(mint)] : undefined,
  });
}

function withdrawAction(op: LiquidityWithdraw): ActionDto {
  const burn = op.kind === "burn";
  const opcode = burn ? JETTON_OP.burn : op.dex === "v1" ? STONFI_V1_OP.refund_me : STONFI_V2_OP.refund_me;
  // The pool refused the notification (no payout asked): bounce; a failed delivery of a payout is still burn_ok.
  const refused = op.success === false && op.amount0 === 0n && op.amount1 === 0n;
  const result: { exit: string; fields: Fields } = refused
    ? { exit: BOUNCE, fields: {} }
    : burn
      ? {
          exit: "burn_ok",
          fields: {
            from_address: addr(op.owner),
            amount0_out: dec(op.amount0),
            amount1_out: dec(op.amount1),
          },
        }
      : {
          exit: "refund_ok",
          fields: {
            user_address: addr(op.owner),
            amount0_out: dec(op.amount0),
            router_jetton0_address: addr(op.asset0.router_wallet),
            amount1_out: dec(op.amount1),
            router_jetton1_address: addr(op.asset1.router_wallet),
          },
        };
  return compact({
    "@type": burn ? "jetton_burn" : "refund_liquidity",
    contract_major_version: op.dex,
    destination: addr(op.pool),
    tx_payload: compact({
      opcode,
      query_id: u64(op.query_id),
      amount: op.lp_amount === null ? undefined : dec(op.lp_amount),
      response_destination: burn ? addr(op.response) : undefined,
    }) as Payload,
    status: status(op, op.pool, result.exit, result.fields),
  });
}

/** `token_address` is what the vault's `vault_pay_to` names: the router's jetton wallet of the fee token. */
function vaultAction(op: VaultWithdrawal): ActionDto {
  return {
    "@type": "withdraw_fee",
    contract_major_version: "v2",
    destination: friendly(op.vault),
    tx_payload: { opcode: STONFI_V2_VAULT_OP.withdraw_fee, query_id: u64(op.query_id) },
    status:
      op.success === false && op.amount === 0n
        ? status(op, op.vault, BOUNCE, {})
        : status(op, op.vault, "ok", {
            amount_out: dec(op.amount),
            token_address: addr(op.asset.router_wallet),
            to_address: addr(op.owner),
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
