/**
 * A `ChainState` for deployments without chain access (e.g. SOURCE=replay): every read fails with
 * `ChainUnavailableError`, which the API answers with 503 rather than inventing data.
 */
import type { ChainState } from "./chain-state.ts";

export class ChainUnavailableError extends Error {
  override readonly name = "ChainUnavailableError";
  readonly retryable = true;
}

export function unavailableChainState(reason: string): ChainState {
  const fail = async (): Promise<never> => {
    throw new ChainUnavailableError(`chain state is not available: ${reason}`);
  };
  return new Proxy({} as ChainState, { get: () => fail });
}
