/**
 * The memoised derivations of ingest/devnet/chain/derivations.ts give what @ton/core computes, for fresh Address
 * objects of equal content too; the provider's `get_wallet_address` cache returns the contract's answer.
 */
import { Address, beginCell, contractAddress, type StateInit } from "@ton/core";
import test from "ava";
import fc from "fast-check";
import { Chain } from "../../../../ingest/devnet/chain/chain.ts";
import {
  addressCellHash,
  addressKey,
  addressSliceCell,
  contractAddressOf,
  memoize,
} from "../../../../ingest/devnet/chain/derivations.ts";
import { chainProvider } from "../../../../ingest/devnet/chain/provider.ts";
import { CodeRegistry } from "../../../../ingest/devnet/chain/registry.ts";
import { registerWallet, walletInit } from "../../../../ingest/devnet/chain/wallet.ts";
import {
  jettonMinterInit,
  jettonWalletAddress,
  jettonWalletInit,
  registerJettons,
} from "../../../../ingest/devnet/contracts/jetton/index.ts";

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((h) => Buffer.from(h));
const address = fc.record({ wc: fc.constantFrom(0, -1), hash }).map(({ wc, hash }) => new Address(wc, hash));

test("contractAddressOf equals contractAddress(0, init)", (t) => {
  fc.assert(
    fc.property(hash, fc.option(hash, { nil: null }), (code, data) => {
      const init: StateInit = {
        code: beginCell().storeBuffer(code).endCell(),
        data: data === null ? null : beginCell().storeBuffer(data).storeRef(beginCell().endCell()).endCell(),
      };
      return contractAddressOf(init).equals(contractAddress(0, init));
    }),
    { seed: 41, numRuns: 100 },
  );
  t.pass();
});

test("address cells and their hashes equal @ton/core's storeAddress", (t) => {
  fc.assert(
    fc.property(address, (a) => {
      const cell = beginCell().storeAddress(a).endCell();
      return addressSliceCell(a).equals(cell) && addressCellHash(a).equals(cell.hash());
    }),
    { seed: 42, numRuns: 100 },
  );
  t.true(addressSliceCell(null).equals(beginCell().storeAddress(null).endCell()));
});

test("keys are by content: a fresh Address of equal content hits the same entry", (t) => {
  const a = new Address(0, Buffer.alloc(32, 7));
  const b = Address.parseRaw(a.toRawString());
  t.not(a, b);
  t.is(addressKey(a), addressKey(b));
  t.not(addressKey(a), addressKey(new Address(-1, Buffer.alloc(32, 7))));
  t.not(addressKey(a), addressKey(null));
  let calls = 0;
  const f = memoize(
    (x: Address) => {
      calls++;
      return x.toRawString();
    },
    (x) => addressKey(x),
  );
  t.is(f(a), f(b));
  t.is(calls, 1);
});

test("memoised jetton wallet inits are shared and derive the @ton/core address", (t) => {
  const owner = new Address(0, Buffer.alloc(32, 1));
  const master = new Address(0, Buffer.alloc(32, 2));
  const init = jettonWalletInit(owner, master);
  t.is(jettonWalletInit(Address.parseRaw(owner.toRawString()), master), init);
  t.true(jettonWalletAddress(owner, master).equals(contractAddress(0, init)));
});

test("the provider's get_wallet_address cache answers what the minter answers", async (t) => {
  const chain = new Chain({ registry: registerJettons(registerWallet(new CodeRegistry())) });
  const admin = chain.deployGenesis(walletInit(1n), 10n ** 9n);
  const metadata = { symbol: "T", name: "Test", decimals: 9 };
  const master = chain.deployGenesis(jettonMinterInit({ admin, metadata }), 10n ** 9n);
  const provider = chainProvider(chain, master);
  const owners = [admin, new Address(0, Buffer.alloc(32, 3)), new Address(0, Buffer.alloc(32, 4))];
  for (let round = 0; round < 2; round++) {
    for (const owner of owners) {
      const args = [{ type: "slice" as const, cell: beginCell().storeAddress(owner).endCell() }];
      const { stack } = await provider.get("get_wallet_address", args);
      t.true(stack.readAddress().equals(jettonWalletAddress(owner, master)));
    }
  }
  // A contract without the method still fails (failures are not cached).
  const args = [{ type: "slice" as const, cell: beginCell().storeAddress(master).endCell() }];
  await t.throwsAsync(() => chainProvider(chain, admin).get("get_wallet_address", args));
});
