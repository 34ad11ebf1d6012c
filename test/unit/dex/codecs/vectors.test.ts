// Every vector of test/vectors/messages/stonfi-messages.json (real mainnet bodies from tonkeeper/tongo's
// tests; provenance in that folder's README.md, each entry's `source`) decodes to its expected fields, and
// encode(decode(cell)) gives a cell with the original hash. Field names below are tongo's, as in the file.
import { Cell } from "@ton/core";
import test from "ava";
import {
  type Decoded,
  decodeBody,
  decodeForwardPayload,
  encodeBody,
  encodeForwardPayload,
} from "../../../../dex/codecs/index.ts";
import { raw, readVectorJson } from "./_helpers.ts";
import {
  fwdCell,
  known,
  type Of,
  payload,
  str,
  transfer,
  v1SwapPayload,
  v2ProvidePayload,
  v2SwapPayload,
} from "./_vector-shapes.ts";

type Vector = {
  name: string;
  opcode: string;
  body_boc: string;
  body_cell_hash_hex: string;
  expected: Record<string, unknown>;
  independently_decoded?: Record<string, unknown>;
};

const VECTORS = readVectorJson<Vector[]>("messages/stonfi-messages.json");

/** vector name → [what the decoder gives in tongo's shape, optional independently_decoded shape]. */
const EXTRACT: Record<string, (b: Decoded, cell: Cell) => [unknown, unknown?]> = {
  "stonfi - add liquidity msg": (b) => [
    transfer(b, (x) => {
      const p = payload(fwdCell(x), "stonfi.v1.provide_lp_payload");
      return {
        sum_type: "StonfiProvideLiquidity",
        op_code: "4244235663",
        token_wallet: raw(p.tokenWallet1),
        min_lp_out: str(p.minLpOut),
      };
    }),
  ],
  "stonfi swap": (b) => {
    const x = known<Of<"stonfi.v1.swap">>(b, "stonfi.v1.swap");
    return [
      {
        query_id: str(x.queryId),
        to_address: raw(x.toAddress),
        sender_address: raw(x.senderWallet),
        jetton_amount: str(x.jettonAmount),
        min_out: str(x.minOut),
        has_ref_address: x.hasRef,
        addrs: { from_user: raw(x.fromUser) },
      },
      { ref_address: raw(x.refAddress) },
    ];
  },
  "TEP161 ton_transfer": (b) => {
    const x = known<Of<"pton.v2.ton_transfer">>(b, "pton.v2.ton_transfer");
    const p = v2ProvidePayload(fwdCell(x));
    const provide = {
      op_code: p.transferred_op,
      token_wallet1: p.token_wallet1,
      refund_address: p.refund_address,
      excesses_address: p.excesses_address,
      tx_deadline: p.tx_deadline,
      sum_type: "StonfiProvideLpV2",
      body: p.provide_lp_body,
    };
    return [
      {
        query_id: str(x.queryId),
        ton_amount: str(x.tonAmount),
        refund_address: raw(x.refundAddress),
        forward_payload: {
          in_ref: x.forwardPayload?.inRef,
          cell_boc_hex: fwdCell(x).toBoc({ idx: false, crc32: false }).toString("hex"),
        },
      },
      { forward_payload_decoded: provide },
    ];
  },
  stonfi_cb_add_liquidity_v2: (b) => {
    const x = known<Of<"stonfi.v2.cb_add_liquidity">>(b, "stonfi.v2.cb_add_liquidity");
    return [
      {
        query_id: str(x.queryId),
        tot_am0: str(x.totAm0),
        tot_am1: str(x.totAm1),
        user_address: raw(x.user),
        min_lp_out: str(x.minLpOut),
        fwd_amount: str(x.fwdAmount),
        custom_payload_cs: x.customPayload,
        additional_fields: {
          to_user_address: raw(x.toUser),
          refund_address: raw(x.refundAddress),
          excess_address: raw(x.excessAddress),
        },
      },
    ];
  },
  stonfi_provide_lp_v2: (b) => {
    const x = known<Of<"stonfi.v2.provide_lp">>(b, "stonfi.v2.provide_lp");
    return [
      {
        query_id: str(x.queryId),
        from_user: raw(x.fromUser),
        left_amount: str(x.amount0),
        right_amount: str(x.amount1),
        dex_payload: v2ProvidePayload(x.dexPayload),
      },
    ];
  },
  "TEP161 deploy_wallet": (b) => {
    const x = known<Of<"pton.v2.deploy_wallet">>(b, "pton.v2.deploy_wallet");
    return [
      { query_id: str(x.queryId), owner_address: raw(x.owner), excesses_address: raw(x.excessesAddress) },
    ];
  },
  stonfi_add_liquidity_v2: (b) => {
    const x = known<Of<"stonfi.v2.add_liquidity">>(b, "stonfi.v2.add_liquidity");
    return [
      {
        query_id: str(x.queryId),
        new_amount0: str(x.newAmount0),
        new_amount1: str(x.newAmount1),
        min_lp_out: str(x.minLpOut),
        fwd_amount: str(x.fwdAmount),
        both_positive: x.bothPositive ? "1" : "0",
        to_user: raw(x.toUser),
        custom_payload_cs: x.customPayload,
        additional_fields: { refund_address: raw(x.refundAddress), excess_address: raw(x.excessAddress) },
      },
    ];
  },
  "TEP161 internal_deploy": (b) => {
    const x = known<Of<"pton.v2.internal_deploy">>(b, "pton.v2.internal_deploy");
    return [{ query_id: str(x.queryId), excesses_address: raw(x.excessesAddress) }];
  },
  stonfi_swap_v2: (b) => {
    const x = known<Of<"stonfi.v2.swap">>(b, "stonfi.v2.swap");
    return [
      {
        query_id: str(x.queryId),
        from_user: raw(x.fromUser),
        left_amount: str(x.amount0),
        right_amount: str(x.amount1),
        dex_payload: v2SwapPayload(x.dexPayload),
      },
    ];
  },
  "stonfi pay_vault": (b) => {
    const x = known<Of<"stonfi.v2.pay_vault">>(b, "stonfi.v2.pay_vault");
    return [
      {
        query_id: str(x.queryId),
        owner: raw(x.owner),
        excesses_address: raw(x.excessesAddress),
        additional_info: {
          amount0_out: str(x.amount0Out),
          token0_address: raw(x.token0),
          amount1_out: str(x.amount1Out),
          token1_address: raw(x.token1),
        },
      },
    ];
  },
  "stonfi burn_notification_ext_v2": (b) => {
    const x = known<Of<"stonfi.v2.burn_notification_ext">>(b, "stonfi.v2.burn_notification_ext");
    return [
      {
        query_id: str(x.queryId),
        jetton_amount: str(x.amount),
        from_address: raw(x.from),
        response_address: raw(x.responseAddress),
        maybe_custom_payload: x.customPayload,
      },
    ];
  },
  "jetton swap (inner message of a wallet v4 external)": (b) => [
    transfer(b, (x) => ({
      sum_type: "StonfiSwap",
      ...v1SwapPayload(payload(fwdCell(x), "stonfi.v1.swap_payload")),
    })),
  ],
  "StonfiSwap (jetton payload)": (_b, cell) => {
    const { op_code: _op, ...rest } = v1SwapPayload(payload(cell, "stonfi.v1.swap_payload"));
    return [rest];
  },
  "unmarshal jetton transfer message stonfi (benchmark)": (b) => {
    const x = transfer(b, (t) => {
      const { transferred_op, swap_body, ...p } = v2SwapPayload(fwdCell(t));
      return { op_code: transferred_op, ...p, sum_type: "StonfiSwapV2", body: swap_body };
    });
    return [{ struct_name: b.kind === "jetton.transfer" ? "Transfer" : b.kind }, { decoded: x }];
  },
};

const PAYLOAD_VECTORS = new Set(["StonfiSwap (jetton payload)"]);

/** Upper-cases addresses inside expected objects (tongo writes lower-case hex in places). */
function upper(x: unknown): unknown {
  if (typeof x === "string") return /^-?\d+:[0-9a-fA-F]{64}$/.test(x) ? x.toUpperCase() : x;
  if (x === null || typeof x !== "object") return x;
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, upper(v)]));
}

const vector = test.macro({
  exec(t, v: Vector) {
    const cell = Cell.fromBase64(v.body_boc);
    t.is(cell.hash().toString("hex"), v.body_cell_hash_hex);
    const extract = EXTRACT[v.name];
    if (extract === undefined) return t.fail(`no extractor for vector ${v.name}`);
    const isPayload = PAYLOAD_VECTORS.has(v.name);
    const decoded = isPayload ? decodeForwardPayload(cell) : decodeBody(cell);
    const why = decoded.kind === "malformed" || decoded.kind === "unknown" ? decoded.reason : "";
    t.not(decoded.kind, "malformed", why);
    t.not(decoded.kind, "unknown", why);
    const [actual, extra] = extract(decoded as Decoded, cell);
    t.deepEqual(actual, upper(v.expected));
    if (extra !== undefined) t.deepEqual(extra, upper(v.independently_decoded));
    if (decoded.kind === "malformed" || decoded.kind === "unknown") return;
    const again = isPayload ? encodeForwardPayload(decoded as never) : encodeBody(decoded as never);
    t.is(again.hash().toString("hex"), v.body_cell_hash_hex);
  },
  title: (_p, v: Vector) => `vector: ${v.name}`,
});

for (const v of VECTORS) test(vector, v);

test("every message vector has an extractor", (t) => {
  t.deepEqual(
    VECTORS.map((v) => v.name).filter((n) => EXTRACT[n] === undefined),
    [],
  );
  t.is(VECTORS.length, 14);
});
