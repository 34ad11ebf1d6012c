/**
 * Code registry: maps a code cell's hash to a factory that builds the TypeScript contract for a StateInit,
 * so a message carrying `init` deploys the right handler, exactly as TON picks code by the StateInit.
 */
import { type Address, beginCell, type Cell } from "@ton/core";
import { type ContractInstance, DevnetError } from "./types.ts";

export type ContractFactory = (deploy: {
  code: Cell;
  data: Cell | null;
  address: Address;
}) => ContractInstance;

export class CodeRegistry {
  readonly #factories = new Map<string, ContractFactory>();

  register(code: Cell, factory: ContractFactory): this {
    const key = code.hash().toString("hex");
    if (this.#factories.has(key)) throw new DevnetError(`code ${key} is already registered`);
    this.#factories.set(key, factory);
    return this;
  }

  has(code: Cell): boolean {
    return this.#factories.has(code.hash().toString("hex"));
  }

  /** Throws a DevnetError for unknown code: a devnet deploying code it cannot run is a setup bug. */
  factory(code: Cell): ContractFactory {
    const key = code.hash().toString("hex");
    const found = this.#factories.get(key);
    if (found === undefined) throw new DevnetError(`no contract registered for code hash ${key}`);
    return found;
  }
}

/**
 * Devnet code cells are marker cells naming the contract kind: no TVM runs them, only their hash matters
 * (it selects the factory and, with the data cell, fixes the contract address).
 */
export function markerCode(kind: string): Cell {
  return beginCell().storeStringTail(`tondex-devnet:${kind}`).endCell();
}
