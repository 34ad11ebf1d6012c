/**
 * The compute, action and bounce phases of one transaction, as pure functions over the flat fee model.
 * Mirrors TON's order: credit → compute (handler) → action (send messages) → bounce if anything failed.
 */
import type {
  Address,
  ComputeSkipReason,
  Message,
  TransactionActionPhase,
  TransactionBouncePhase,
  TransactionComputePhase,
} from "@ton/core";
import { ActionPhase } from "./action-phase.ts";
import {
  ACTION_NOT_ENOUGH_TON,
  COMPUTE_FEE,
  EXTERNAL_GAS_CREDIT,
  FORWARD_FEE,
  GAS_LIMIT,
  GAS_USED_PER_TX,
} from "./fees.ts";
import { actionListKey, bounceBody, internalMessage, messageSize, messagesSize } from "./messages.ts";
import {
  type ContractInstance,
  type ContractRun,
  type ExecutionContext,
  isContractThrow,
  type OutgoingMessage,
  SendMode,
} from "./types.ts";

export type Compute = {
  phase: TransactionComputePhase;
  gasFee: bigint;
  success: boolean;
  /** The handler's result, only when the compute phase succeeded. */
  run: ContractRun | null;
};

function skipped(reason: ComputeSkipReason): Compute {
  return { phase: { type: "skipped", reason }, gasFee: 0n, success: false, run: null };
}

function invoke(contract: ContractInstance, message: Message, ctx: ExecutionContext): ContractRun {
  const { info, body } = message;
  const init = message.init ?? undefined;
  if (info.type === "internal") {
    const { src: source, bounce, bounced } = info;
    return contract.receiveInternal({ source, value: info.value.coins, bounce, bounced, body, init }, ctx);
  }
  if (contract.receiveExternal === undefined) throw new TypeError(`${contract.kind} takes no externals`);
  return contract.receiveExternal({ body, init }, ctx);
}

/** Runs the handler; a `ContractThrow` (or an exit code other than 0/1) fails the phase and keeps the state. */
export function runCompute(
  contract: ContractInstance | null,
  activated: boolean,
  message: Message,
  ctx: ExecutionContext,
): Compute {
  if (contract === null) return skipped("no-state");
  if (ctx.balance < COMPUTE_FEE) return skipped("no-gas");
  let run: ContractRun | null = null;
  let exitCode: number;
  try {
    run = invoke(contract, message, ctx);
    exitCode = run.exitCode;
  } catch (error) {
    if (!isContractThrow(error)) throw error;
    exitCode = error.exitCode;
  }
  const success = exitCode === 0 || exitCode === 1;
  const phase = vmPhase(exitCode, activated, message.info.type === "external-in");
  return { phase, gasFee: COMPUTE_FEE, success, run: success ? run : null };
}

/**
 * Compute phases differ only in the exit code, `accountActivated` and the gas credit of externals, so the
 * phases of successful runs (exit code 0 or 1, most transactions) are shared frozen objects, one per
 * combination (index: exit code, activated, external as bits).
 */
const successPhases: TransactionComputePhase[] = [];

function vmPhase(exitCode: number, activated: boolean, external: boolean): TransactionComputePhase {
  const success = exitCode === 0 || exitCode === 1;
  const index = (exitCode << 2) | (activated ? 2 : 0) | (external ? 1 : 0);
  const shared = success ? successPhases[index] : undefined;
  if (shared !== undefined) return shared;
  const phase: TransactionComputePhase = Object.freeze({
    type: "vm",
    success,
    messageStateUsed: false,
    accountActivated: activated,
    gasFees: COMPUTE_FEE,
    gasUsed: GAS_USED_PER_TX,
    gasLimit: GAS_LIMIT,
    gasCredit: external ? EXTERNAL_GAS_CREDIT : undefined,
    mode: 0,
    exitCode,
    vmSteps: 0,
    vmInitStateHash: 0n,
    vmFinalStateHash: 0n,
  });
  if (success) successPhases[index] = phase;
  return phase;
}

export type Actions = {
  ok: boolean;
  resultCode: number;
  /** Balance after the actions (unchanged when they failed). */
  balance: bigint;
  /** The messages sent, in order, and the send mode of each (parallel arrays: no object per message). */
  messages: Message[];
  modes: number[];
  skipped: number;
  fwdFees: bigint;
};

export type Origin = { address: Address; lt: bigint; now: number };

/**
 * Sends the handler's messages. `carry` is what mode 64 adds: the inbound value left after compute fees.
 * Without +1 the forward fee comes out of the message value; with +1 (and not 128) it is paid on top.
 */
export function runActions(outs: OutgoingMessage[], balance: bigint, carry: bigint, origin: Origin): Actions {
  let remaining = balance;
  let carryLeft = carry;
  const messages: Message[] = [];
  const modes: number[] = [];
  let skippedCount = 0;
  for (const out of outs) {
    const mode = out.mode ?? SendMode.ORDINARY;
    let value = out.value;
    if (mode & SendMode.CARRY_ALL_BALANCE) value = remaining;
    else if (mode & SendMode.CARRY_INBOUND_VALUE) {
      value += carryLeft;
      carryLeft = 0n;
    }
    const separate = (mode & SendMode.PAY_FEES_SEPARATELY) !== 0 && !(mode & SendMode.CARRY_ALL_BALANCE);
    const debit = separate ? value + FORWARD_FEE : value;
    const delivered = separate ? value : value - FORWARD_FEE;
    if (delivered < 0n || debit > remaining) {
      if (mode & SendMode.IGNORE_ERRORS) {
        skippedCount++;
        continue;
      }
      return {
        ok: false,
        resultCode: ACTION_NOT_ENOUGH_TON,
        balance,
        messages: [],
        modes: [],
        skipped: skippedCount,
        fwdFees: 0n,
      };
    }
    remaining -= debit;
    const message = internalMessage({
      src: origin.address,
      dest: out.to,
      value: delivered,
      bounce: out.bounce,
      bounced: false,
      body: out.body,
      init: out.init,
      forwardFee: FORWARD_FEE,
      createdLt: origin.lt + 1n + BigInt(messages.length),
      createdAt: origin.now,
    });
    messages.push(message);
    modes.push(mode);
  }
  const fwdFees = FORWARD_FEE * BigInt(messages.length);
  return { ok: true, resultCode: 0, balance: remaining, messages, modes, skipped: skippedCount, fwdFees };
}

export function actionPhaseOf(actions: Actions, total: number): TransactionActionPhase {
  return new ActionPhase(
    actions.ok,
    actions.resultCode === ACTION_NOT_ENOUGH_TON,
    actions.fwdFees,
    actions.resultCode,
    total,
    actions.skipped,
    actions.messages.length,
    actionListKey(actions.messages, actions.modes),
    messagesSize(actions.messages),
  );
}

export type Bounce = { phase: TransactionBouncePhase; message: Message | null; cost: bigint };

/** Sends the inbound value back minus compute and forward fees; `cost` is what leaves the balance. */
export function runBounce(inbound: Message, gasFee: bigint, origin: Origin): Bounce {
  if (inbound.info.type !== "internal") throw new TypeError("only internal messages bounce");
  const left = inbound.info.value.coins - gasFee;
  const message = internalMessage({
    src: origin.address,
    dest: inbound.info.src,
    value: left > FORWARD_FEE ? left - FORWARD_FEE : 0n,
    bounce: false,
    bounced: true,
    body: bounceBody(inbound.body),
    forwardFee: FORWARD_FEE,
    createdLt: origin.lt + 1n,
    createdAt: origin.now,
  });
  const size = messageSize(message);
  if (left < FORWARD_FEE) {
    return {
      phase: { type: "no-funds", messageSize: size, requiredForwardFees: FORWARD_FEE },
      message: null,
      cost: 0n,
    };
  }
  return {
    phase: { type: "ok", messageSize: size, messageFees: 0n, forwardFees: FORWARD_FEE },
    message,
    cost: left,
  };
}
