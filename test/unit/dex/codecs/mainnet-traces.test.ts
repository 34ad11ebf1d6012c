// Every message body in test/vectors/mainnet-traces/*.json (real mainnet traces from toncenter/ton-indexer;
// provenance in that folder's FORMAT.md) with a jetton/STON.fi/pTON op decodes (never `malformed`), and
// re-encodes to a cell with the original hash, including the forward payloads inside transfers.
import { Cell } from "@ton/core";
import test from "ava";
import {
  decodeBody,
  decodeForwardPayload,
  encodeBody,
  encodeForwardPayload,
} from "../../../../dex/codecs/index.ts";
import { BODY_CODECS, PAYLOAD_CODECS } from "../../../../dex/codecs/registry.ts";
import { listVectors, readVectorJson } from "./_helpers.ts";

type Msg = { hash: string; opcode: string; body_boc: string };
type Trace = { transactions: { in_msg: Msg; out_msgs: Msg[] }[] };

const KNOWN_OPS = new Set<number>([...BODY_CODECS, ...PAYLOAD_CODECS].map((c) => c.op));

const traceMacro = test.macro({
  exec(t, file: string) {
    const trace = readVectorJson<Trace>(`mainnet-traces/${file}`);
    const seen = new Set<string>();
    let decoded = 0;
    for (const tx of trace.transactions) {
      for (const m of [tx.in_msg, ...tx.out_msgs]) {
        if (seen.has(m.hash)) continue;
        seen.add(m.hash);
        const cell = Cell.fromBase64(m.body_boc);
        const d = decodeBody(cell);
        if (!KNOWN_OPS.has(Number.parseInt(m.opcode, 16))) {
          t.is(d.kind, "unknown", m.opcode);
          continue;
        }
        if (d.kind === "unknown" || d.kind === "malformed") return t.fail(`${m.opcode}: ${d.reason}`);
        decoded++;
        t.true(encodeBody(d).hash().equals(cell.hash()), `${d.kind} round-trip`);
        const fwd = "forwardPayload" in d ? d.forwardPayload : null;
        const inner =
          "dexPayload" in d ? d.dexPayload : fwd !== null && fwd.payload.bits.length > 0 ? fwd.payload : null;
        if (inner === null) continue;
        const p = decodeForwardPayload(inner);
        if (p.kind === "malformed") return t.fail(`${d.kind} payload: ${p.reason}`);
        if (p.kind !== "unknown") t.true(encodeForwardPayload(p).equals(inner), `${p.kind} round-trip`);
      }
    }
    t.true(decoded > 0);
  },
  title: (_p, file: string) => `mainnet trace ${file}`,
});

for (const f of listVectors("mainnet-traces", ".json")) {
  test(traceMacro, f);
}
