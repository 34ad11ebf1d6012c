/**
 * The AMM case format of vectors/amm (FORMAT.md there): one swap, reverse-swap or liquidity question
 * about one pool state. Integers are decimal strings. `expected` is read only by `--check`.
 * Parsing never throws: a malformed case yields the path of the first bad fields.
 */
import { z } from "zod";
import { POOL_TYPES } from "./pool-types.ts";

const uint = z.string().regex(/^\d+$/, "expected a decimal integer string");
const poolType = z.enum(POOL_TYPES);

export const ammParams = z.object({
  reserve0: uint,
  reserve1: uint,
  lp_supply: uint,
  lp_fee_bps: uint,
  protocol_fee_bps: uint,
  ref_fee_bps: uint.optional(),
  collected_protocol_fee0: uint.optional(),
  collected_protocol_fee1: uint.optional(),
  is_locked: z.boolean().optional(),
  amp: uint.optional(),
  rate: uint.optional(),
  w0: uint.optional(),
  w1: uint.optional(),
});

const base = {
  id: z.string().min(1),
  pool_type: poolType,
  params: ammParams,
  expected: z.record(z.unknown()).optional(),
};
const direction = z.enum(["0to1", "1to0"]);

export const swapCase = z.object({
  ...base,
  direction,
  amount_in: uint,
  min_out: uint.default("0"),
  has_referral: z.boolean().default(false),
  tx_deadline_offset: z
    .string()
    .regex(/^-?\d+$/)
    .optional(),
});

export const reverseCase = z.object({
  ...base,
  direction,
  target_out: uint,
  has_referral: z.boolean().default(false),
});

export const provideCase = z.object({
  ...base,
  op: z.literal("provide"),
  amount0: uint,
  amount1: uint,
  min_lp_out: uint,
  both_positive: z.boolean().optional(),
});

export const burnCase = z.object({ ...base, op: z.literal("burn"), lp_amount: uint });

export type AmmKind = "swap" | "reverse" | "liquidity";
export type SwapCase = z.infer<typeof swapCase>;
export type ReverseCase = z.infer<typeof reverseCase>;
export type ProvideCase = z.infer<typeof provideCase>;
export type BurnCase = z.infer<typeof burnCase>;
export type AmmCase =
  | { kind: "swap"; value: SwapCase }
  | { kind: "reverse"; value: ReverseCase }
  | { kind: "liquidity"; value: ProvideCase | BurnCase };

/** The kind of a case: explicit (file header) or inferred from its fields. */
export function inferKind(raw: Record<string, unknown>, hint?: AmmKind): AmmKind | null {
  if (hint !== undefined) return hint;
  if ("op" in raw) return "liquidity";
  if ("target_out" in raw) return "reverse";
  if ("amount_in" in raw) return "swap";
  return null;
}

export type ParsedCase = { ok: true; case: AmmCase } | { ok: false; id: string; error: string };

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `/${i.path.join("/")}: ${i.message}`).join("; ");
}

export function parseAmmCase(raw: unknown, hint?: AmmKind): ParsedCase {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, id: "?", error: "a case must be a JSON object" };
  }
  const obj = raw as Record<string, unknown>;
  const id = typeof obj.id === "string" ? obj.id : "?";
  const kind = inferKind(obj, hint);
  if (kind === null)
    return { ok: false, id, error: "cannot tell the case kind: expected amount_in, target_out or op" };
  if (kind === "liquidity") {
    const schema = obj.op === "burn" ? burnCase : provideCase;
    const r = schema.safeParse(obj);
    return r.success
      ? { ok: true, case: { kind, value: r.data } }
      : { ok: false, id, error: describeIssues(r.error) };
  }
  const r = kind === "swap" ? swapCase.safeParse(obj) : reverseCase.safeParse(obj);
  if (!r.success) return { ok: false, id, error: describeIssues(r.error) };
  return {
    ok: true,
    case: kind === "swap" ? { kind, value: r.data as SwapCase } : { kind, value: r.data as ReverseCase },
  };
}
