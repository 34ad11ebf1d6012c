/**
 * The DexScreener adapter feed (decisions in api/README "Export feeds"): the newest fully stored block, the
 * events of a block range, and the assets and pairs they name. Every pair an event names resolves through
 * `feedPairOf`, every asset of a served pair through `feedAssetOf`: the read model serves an event's
 * decimals only when its pool's tokens are known and both assets can be described (name, symbol, decimals),
 * read with the event (the API's cached lists answer only for pools and assets they know for good; see
 * api/read-model.ts `FeedReference`).
 */
import type { ApiDeps } from "../deps.ts";
import { BadRequestError, NotFoundError } from "../errors.ts";
import {
  feedAsset,
  feedEvents,
  feedPair,
  type WireAsset,
  type WireBlock,
  type WireEvent,
  type WirePair,
  wireBlock,
} from "../mappers/dexscreener.ts";
import type { RawAddress } from "../read-model.ts";

/** The widest range `/events` serves in one request, in blocks (inclusive bounds). */
export const MAX_EVENT_BLOCKS = 10_000;

export async function latestBlock(deps: ApiDeps): Promise<WireBlock> {
  const head = await deps.data.getFeedHead();
  if (head === null)
    throw new NotFoundError("block", [{ field: "block", message: "no block is stored yet" }]);
  return wireBlock(head);
}

export async function feedAssetOf(deps: ApiDeps, address: RawAddress): Promise<WireAsset> {
  const [a] = await deps.data.getAssets([address]);
  const wire = a === undefined ? null : feedAsset(a);
  if (wire === null)
    throw new NotFoundError("asset", [
      { field: "address", message: "unknown asset, or its metadata is not known" },
    ]);
  return wire;
}

export async function feedPairOf(deps: ApiDeps, address: RawAddress): Promise<WirePair> {
  const pool = await deps.data.getPool(address);
  const pair = pool === null ? null : feedPair(pool);
  if (pair === null)
    throw new NotFoundError("pair", [
      { field: "address", message: "unknown pool, or its tokens are not known" },
    ]);
  return pair;
}

export async function eventsOf(deps: ApiDeps, from: number, to: number): Promise<WireEvent[]> {
  if (from > to) throw new BadRequestError("fromBlock", "must not be greater than toBlock");
  if (to - from + 1 > MAX_EVENT_BLOCKS)
    throw new BadRequestError("toBlock", `the range may hold at most ${MAX_EVENT_BLOCKS} blocks`);
  const head = await deps.data.getFeedHead();
  if (head === null || to > head.mcSeqno)
    throw new BadRequestError(
      "toBlock",
      `must not be greater than the latest block (${head?.mcSeqno ?? "none"})`,
    );
  return feedEvents(await deps.data.getFeedEvents(from, to));
}
