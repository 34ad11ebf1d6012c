/**
 * The smallest useful devnet contract: it sends every inbound message's body back to its sender, with
 * the inbound value (mode 64), and counts the messages it answered (bounces are absorbed). The chain
 * core's tests and its benchmark run on it, so they measure the chain and nothing else.
 */
import { beginCell, type StateInit } from "@ton/core";
import type { CodeRegistry } from "./registry.ts";
import { markerCode } from "./registry.ts";
import { type ContractHandler, instantiate, SendMode } from "./types.ts";

export type EchoState = { count: number };

export const echoHandler: ContractHandler<EchoState> = {
  kind: "echo",
  receiveInternal(state, msg) {
    if (msg.bounced) return { exitCode: 0, outMessages: [], state };
    const reply = {
      to: msg.source,
      value: 0n,
      bounce: false,
      body: msg.body,
      mode: SendMode.CARRY_INBOUND_VALUE,
    };
    return { exitCode: 0, outMessages: [reply], state: { count: state.count + 1 } };
  },
  stateToCell: (s) => beginCell().storeUint(s.count, 32).endCell(),
};

export const ECHO_CODE = markerCode("echo");

/** StateInit of an echo contract; `salt` makes addresses distinct and is its starting count. */
export const echoInit = (salt: number): StateInit => ({
  code: ECHO_CODE,
  data: beginCell().storeUint(salt, 32).endCell(),
});

export function registerEcho(registry: CodeRegistry): CodeRegistry {
  return registry.register(ECHO_CODE, ({ data }) =>
    instantiate(echoHandler, { count: data!.beginParse().loadUint(32) }),
  );
}
