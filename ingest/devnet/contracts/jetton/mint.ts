/**
 * The admin → minter `mint` message. There is no TEP for minting; the devnet follows the reference
 * token-contract minter (`ft/jetton-minter.fc`, also the layout of the stablecoin minter's
 * `mint#642b7d07`), whose body forwards a ready `internal_transfer` to the recipient's wallet:
 *
 *   mint#642b7d07 query_id:uint64 to_address:MsgAddress ton_amount:Coins master_msg:^Cell
 *
 * `ton_amount` is the TON the minter attaches to the forwarded `internal_transfer`; `master_msg` is that
 * `internal_transfer` body (its `amount` is what total_supply grows by). The original reference minter
 * used op 21 with the identical layout, so the devnet minter accepts both ops; it builds 0x642b7d07.
 */
import { type Address, beginCell, type Cell, type Slice } from "@ton/core";
import { decodeJettonInternalTransfer, type JettonInternalTransfer } from "../../../../dex/codecs/index.ts";
import { readCell } from "../../chain/cell-reader.ts";
import { encodeJettonInternalTransfer } from "../encode.ts";

export const JETTON_MINT_OP = 0x642b7d07;
/** op::mint() of the original TEP-74 reference minter. */
export const JETTON_MINT_OP_LEGACY = 21;

export type JettonMint = {
  queryId: bigint;
  to: Address;
  tonAmount: bigint;
  masterMsg: Cell;
  /** `master_msg` decoded (an `internal_transfer`). */
  transfer: JettonInternalTransfer;
};

export function jettonMintBody(args: {
  queryId: bigint;
  to: Address;
  amount: bigint;
  responseAddress: Address | null;
  forwardTonAmount?: bigint;
  forwardPayload?: Cell | null;
  tonAmount: bigint;
}): Cell {
  const payload = args.forwardPayload ?? null;
  const masterMsg = encodeJettonInternalTransfer({
    kind: "jetton.internal_transfer",
    queryId: args.queryId,
    amount: args.amount,
    // Mints have no previous owner: `from` is addr_none, as in the reference deploy scripts.
    from: null,
    responseAddress: args.responseAddress,
    forwardTonAmount: args.forwardTonAmount ?? 0n,
    forwardPayload:
      payload === null ? { inRef: false, payload: beginCell().endCell() } : { inRef: true, payload },
  });
  return beginCell()
    .storeUint(JETTON_MINT_OP, 32)
    .storeUint(args.queryId, 64)
    .storeAddress(args.to)
    .storeCoins(args.tonAmount)
    .storeRef(masterMsg)
    .endCell();
}

/** Reads a mint body whose op (either value) was already checked; throws on a malformed one. */
export function decodeJettonMint(s: Slice): JettonMint {
  s.skip(32);
  const queryId = s.loadUintBig(64);
  const to = s.loadAddress();
  const tonAmount = s.loadCoins();
  const masterMsg = s.loadRef();
  return {
    queryId,
    to,
    tonAmount,
    masterMsg,
    transfer: decodeJettonInternalTransfer(readCell(masterMsg)),
  };
}
