/**
 * Mapper: a parsed @ton/core `Transaction` (+ the block it was committed in) → the RawTransaction wire
 * record. Used by the mainnet source. Message hashes are taken from the message cells exactly as stored in
 * the transaction (never from a re-serialisation), so they equal the hashes explorers and indexers show.
 */
import {
  beginCell,
  type Cell,
  Dictionary,
  loadMessage,
  type Message,
  storeStateInit,
  type AccountStatus as TonCoreAccountStatus,
  type Transaction,
  type TransactionComputePhase,
} from "@ton/core";
import {
  type AccountStatus,
  RAW_TX_VERSION,
  type RawMessage,
  type RawTransaction,
} from "./raw-transaction.ts";
import { toRawAddress } from "./ton.ts";

export type BlockContext = {
  mc_seqno: number;
  /** The shard block that holds the transaction. `shard` is the 64-bit shard prefix. */
  workchain: number;
  shard: bigint;
  block_seqno: number;
};

function shardId(workchain: number, shard: bigint): string {
  const unsigned = BigInt.asUintN(64, shard);
  return `${workchain}:${unsigned.toString(16).padStart(16, "0").toUpperCase()}`;
}

function opcodeOf(body: Cell): number | null {
  return body.bits.length >= 32 ? body.beginParse().preloadUint(32) : null;
}

function toBase64(cell: Cell): string {
  return cell.toBoc().toString("base64");
}

/** One message, from its original cell. */
export function rawMessageFromCell(cell: Cell): RawMessage {
  const message: Message = loadMessage(cell.beginParse());
  const { info } = message;
  const common = {
    hash: cell.hash().toString("hex"),
    opcode: opcodeOf(message.body),
    body_boc: toBase64(message.body),
    ...(message.init
      ? { init_boc: toBase64(beginCell().store(storeStateInit(message.init)).endCell()) }
      : {}),
  };
  switch (info.type) {
    case "internal":
      return {
        ...common,
        source: toRawAddress(info.src),
        destination: toRawAddress(info.dest),
        value: info.value.coins.toString(),
        fwd_fee: info.forwardFee.toString(),
        bounce: info.bounce,
        bounced: info.bounced,
        created_lt: info.createdLt.toString(),
        created_at: info.createdAt,
      };
    case "external-in":
      return {
        ...common,
        source: null,
        destination: toRawAddress(info.dest),
        value: null,
        fwd_fee: null,
        bounce: null,
        bounced: null,
        created_lt: null,
        created_at: null,
      };
    case "external-out":
      return {
        ...common,
        source: toRawAddress(info.src),
        destination: null,
        value: null,
        fwd_fee: null,
        bounce: null,
        bounced: null,
        created_lt: info.createdLt.toString(),
        created_at: info.createdAt,
      };
  }
}

/** The message cells of a transaction, in place: `^[ in_msg:(Maybe ^Message) out_msgs:(HashmapE 15 ^Message) ]`. */
function messageCells(raw: Cell): { inMsg: Cell | null; outMsgs: Cell[] } {
  const slice = raw.refs[0]?.beginParse();
  if (slice === undefined) return { inMsg: null, outMsgs: [] };
  const inMsg = slice.loadMaybeRef();
  const dict = slice.loadDict(Dictionary.Keys.Uint(15), {
    serialize: (src: Cell, builder) => {
      builder.storeRef(src);
    },
    parse: (s) => s.loadRef(),
  });
  const outMsgs = [...dict.keys()].sort((a, b) => a - b).map((k) => dict.get(k)!);
  return { inMsg, outMsgs };
}

function computeOf(phase: TransactionComputePhase | undefined): RawTransaction["compute"] {
  if (phase === undefined || phase.type === "skipped") return { success: false, exit_code: null };
  return { success: phase.success, exit_code: phase.exitCode };
}

/** @ton/core's account status names → the wire's (toncenter's). */
export const ACCOUNT_STATUS_NAME: Readonly<Record<TonCoreAccountStatus, AccountStatus>> = {
  uninitialized: "uninit",
  frozen: "frozen",
  active: "active",
  "non-existing": "nonexist",
};

export function rawTransactionFromTonCore(tx: Transaction, block: BlockContext): RawTransaction {
  const d = tx.description;
  const computePhase = "computePhase" in d ? d.computePhase : undefined;
  const actionPhase = "actionPhase" in d ? d.actionPhase : undefined;
  const { inMsg, outMsgs } = messageCells(tx.raw);
  return {
    version: RAW_TX_VERSION,
    mc_seqno: block.mc_seqno,
    shard: shardId(block.workchain, block.shard),
    block_seqno: block.block_seqno,
    hash: tx.hash().toString("hex"),
    lt: tx.lt.toString(),
    now: tx.now,
    account: `${block.workchain}:${tx.address.toString(16).padStart(64, "0").toUpperCase()}`,
    aborted: "aborted" in d ? d.aborted : false,
    compute: computeOf(computePhase),
    action: actionPhase ? { success: actionPhase.success, result_code: actionPhase.resultCode } : null,
    in_msg: inMsg ? rawMessageFromCell(inMsg) : null,
    out_msgs: outMsgs.map(rawMessageFromCell),
    boc: toBase64(tx.raw),
    orig_status: ACCOUNT_STATUS_NAME[tx.oldStatus],
    end_status: ACCOUNT_STATUS_NAME[tx.endStatus],
    prev_trans_hash: tx.prevTransactionHash.toString(16).padStart(64, "0"),
    prev_trans_lt: tx.prevTransactionLt.toString(),
  };
}
