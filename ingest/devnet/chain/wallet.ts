/**
 * A minimal devnet wallet: the only contract that accepts external messages, so every trace starts at a
 * wallet like on TON. The external body is a simplified wallet v3 payload (v3 signs
 * `subwallet_id valid_until seqno`; here no signature, no subwallet): `seqno:uint32 valid_until:uint32`,
 * then up to 4 × (`mode:uint8`, `^MessageRelaxed`)
 * (https://github.com/ton-blockchain/wallet-contract/blob/main/func/wallet-v3-code.fc).
 */
import { type Address, beginCell, Cell, loadMessageRelaxed, type StateInit } from "@ton/core";
import { readCell } from "./cell-reader.ts";
import { type Begin, beginFast, CellWriter } from "./cell-writer.ts";
import { adoptCell, type FastCell, toTonCell } from "./fast-cell.ts";
import { type CodeRegistry, markerCode } from "./registry.ts";
import { writeRelaxedInternal } from "./tlb.ts";
import { type ContractHandler, ContractThrow, instantiate, type OutgoingMessage } from "./types.ts";

export type WalletState = { seqno: number; id: bigint };

/** wallet v3 exit codes: 33 = bad seqno, 35 = expired. */
export const WALLET_BAD_SEQNO = 33;
export const WALLET_EXPIRED = 35;
export const WALLET_CODE = markerCode("wallet");

/**
 * The fields of every MessageRelaxed cell `walletTransferBody` built, keyed by that (immutable) cell: the
 * wallet then reads them back without parsing the cell again. They are exactly what `loadMessageRelaxed`
 * would return (the same content; the body and init are the sender's own objects). Cells built elsewhere
 * are parsed as before.
 */
const builtTransfers = new WeakMap<Cell, Omit<OutgoingMessage, "mode">>();

export const walletHandler: ContractHandler<WalletState> = {
  kind: "wallet",
  // Top-ups and bounces are accepted silently.
  receiveInternal: (state) => ({ exitCode: 0, outMessages: [], state }),
  receiveExternal(state, msg, ctx) {
    const s = readCell(msg.body);
    const seqno = s.loadUint(32);
    const validUntil = s.loadUint(32);
    if (seqno !== state.seqno) throw new ContractThrow(WALLET_BAD_SEQNO);
    if (validUntil < ctx.now) throw new ContractThrow(WALLET_EXPIRED);
    const outMessages: OutgoingMessage[] = [];
    while (s.remainingRefs > 0) {
      const mode = s.loadUint(8);
      const ref = s.loadRef();
      const known = builtTransfers.get(ref);
      if (known !== undefined) {
        outMessages.push({ ...known, mode });
        continue;
      }
      const { info, body, init } = loadMessageRelaxed(ref.beginParse());
      if (info.type !== "internal") continue;
      outMessages.push({
        to: info.dest,
        value: info.value.coins,
        bounce: info.bounce,
        body,
        init: init ?? undefined,
        mode,
      });
    }
    return { exitCode: 0, outMessages, state: { ...state, seqno: seqno + 1 } };
  },
  stateToCell: (state) => walletData(beginFast, state),
};

function walletData<C>(begin: Begin<C>, state: WalletState): C {
  return begin().storeUint(state.seqno, 32).storeUint(state.id, 256).endCell();
}

/** StateInit of wallet `id` (the id stands in for the public key and makes addresses distinct). */
export function walletInit(id: bigint): StateInit {
  return { code: WALLET_CODE, data: walletData(beginCell, { seqno: 0, id }) };
}

export function registerWallet(registry: CodeRegistry): CodeRegistry {
  return registry.register(WALLET_CODE, ({ data }) => {
    const s = data!.beginParse();
    return instantiate(walletHandler, { seqno: s.loadUint(32), id: s.loadUintBig(256) });
  });
}

export type Transfer = {
  to: Address;
  value: bigint;
  bounce?: boolean;
  body?: Cell;
  init?: StateInit;
  /** Default 3 (pay fees separately, ignore errors), what wallets send. */
  mode?: number;
};

/** Serialised with ./tlb.ts's writer, bit for bit what `storeMessageRelaxed(internal(...))` gives. */
export function walletTransferBody(seqno: number, validUntil: number, transfers: Transfer[]): Cell {
  const w = new CellWriter().uint(seqno, 32).uint(validUntil, 32);
  const relaxed: [FastCell, Omit<OutgoingMessage, "mode">][] = [];
  for (const t of transfers) {
    const fields = {
      to: t.to,
      value: t.value,
      bounce: t.bounce ?? true,
      body: t.body === undefined ? Cell.EMPTY : adoptCell(t.body),
      ...(t.init ? { init: t.init } : {}),
    };
    const cell = writeRelaxedInternal(fields);
    relaxed.push([cell, fields]);
    w.uint(t.mode ?? 3, 8).ref(cell);
  }
  const body = toTonCell(w.end());
  for (const [cell, fields] of relaxed) builtTransfers.set(toTonCell(cell), fields);
  return body;
}
