/**
 * The `condition` expression of assets/query, assets/search and pools/query (api.md §7.1): tag names
 * combined with `!` (NOT), `&` (AND), `|` (OR) and parentheses; `true` / `false` are literals. Precedence
 * is the usual one, NOT over AND over OR (the reference leaves it open, §12.6). A syntax error is a 400
 * naming `condition`.
 */
import { BadRequestError } from "../errors.ts";

export type Condition =
  | { kind: "tag"; tag: string }
  | { kind: "const"; value: boolean }
  | { kind: "not"; arg: Condition }
  | { kind: "and" | "or"; args: Condition[] };

const TOKEN = /\s*(\(|\)|!|&|\||[A-Za-z0-9_:.-]+)/y;
/** Nesting limit: keeps a hostile `((((…` from exhausting the stack. */
const MAX_DEPTH = 64;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (m === null) throw fail(`unexpected character at position ${at}`);
    tokens.push(m[1] as string);
  }
  return tokens;
}

const fail = (message: string) => new BadRequestError("condition", message);

class Parser {
  private i = 0;
  constructor(private readonly tokens: string[]) {}

  parse(): Condition {
    const c = this.or(0);
    if (this.i < this.tokens.length) throw fail(`unexpected '${this.tokens[this.i]}'`);
    return c;
  }

  private or(depth: number): Condition {
    const args = [this.and(depth)];
    while (this.tokens[this.i] === "|") {
      this.i++;
      args.push(this.and(depth));
    }
    return args.length === 1 ? (args[0] as Condition) : { kind: "or", args };
  }

  private and(depth: number): Condition {
    const args = [this.unary(depth)];
    while (this.tokens[this.i] === "&") {
      this.i++;
      args.push(this.unary(depth));
    }
    return args.length === 1 ? (args[0] as Condition) : { kind: "and", args };
  }

  private unary(depth: number): Condition {
    if (depth > MAX_DEPTH) throw fail("expression nested too deeply");
    const t = this.tokens[this.i++];
    if (t === undefined) throw fail("unexpected end of expression");
    if (t === "!") return { kind: "not", arg: this.unary(depth + 1) };
    if (t === "(") {
      const inner = this.or(depth + 1);
      if (this.tokens[this.i++] !== ")") throw fail("missing ')'");
      return inner;
    }
    if (t === ")" || t === "&" || t === "|") throw fail(`unexpected '${t}'`);
    if (t === "true" || t === "false") return { kind: "const", value: t === "true" };
    return { kind: "tag", tag: t };
  }
}

export function parseCondition(text: string): Condition {
  const tokens = tokenize(text);
  if (tokens.length === 0) throw fail("empty expression");
  return new Parser(tokens).parse();
}

export function evaluate(c: Condition, has: (tag: string) => boolean): boolean {
  switch (c.kind) {
    case "tag":
      return has(c.tag);
    case "const":
      return c.value;
    case "not":
      return !evaluate(c.arg, has);
    case "and":
      return c.args.every((a) => evaluate(a, has));
    case "or":
      return c.args.some((a) => evaluate(a, has));
  }
}

/** Whether the expression mentions `tag` (to fetch wallet balances only when a condition needs them). */
export function mentions(c: Condition, tag: string): boolean {
  switch (c.kind) {
    case "tag":
      return c.tag === tag;
    case "const":
      return false;
    case "not":
      return mentions(c.arg, tag);
    default:
      return c.args.some((a) => mentions(a, tag));
  }
}
