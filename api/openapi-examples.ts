/**
 * Puts examples into the generated OpenAPI document: every parameter and body field whose schema carries
 * the address pattern (schemas/api/wire.ts ADDRESS_PATTERN) gets a real devnet address
 * (schemas/api/examples.ts), as the schema's `example` and, for parameters, in every accepted form; the
 * amounts, times and hashes a request needs get theirs by name, so every example reaches a handler. Done
 * on the finished document because the generator only knows zod's own checks, and the example depends on
 * the route (`{address}` is a pool on one route, a router on another).
 */
import { addressExample, VALUE_EXAMPLES } from "../schemas/api/examples.ts";
import { ADDRESS_PATTERN } from "../schemas/api/wire.ts";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isAddressSchema = (s: unknown): boolean => isObject(s) && s.pattern === ADDRESS_PATTERN.source;

/**
 * Sets `example` on `schema` (or its array items, or its anyOf branches): an address for an address
 * schema, else the value example of its name, if any.
 */
function exemplify(schema: unknown, path: string, name: string): void {
  if (!isObject(schema)) return;
  if (isAddressSchema(schema)) schema.example = addressExample(path, name).bounceable;
  else if (schema.type === "string" && VALUE_EXAMPLES[name] !== undefined)
    schema.example = VALUE_EXAMPLES[name];
  exemplify(schema.items, path, name);
  for (const branch of [schema.anyOf, schema.oneOf, schema.allOf])
    if (Array.isArray(branch)) for (const b of branch) exemplify(b, path, name);
  if (isObject(schema.properties))
    for (const [key, sub] of Object.entries(schema.properties)) exemplify(sub, path, key);
}

/** Mutates and returns `document` (OpenAPI 3.0). */
export function withAddressExamples<D extends object>(document: D): D {
  const doc = document as Json;
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isObject(operation) || !Array.isArray(operation.parameters)) continue;
      for (const param of operation.parameters as Json[]) {
        const name = String(param.name);
        exemplify(param.schema, path, name);
        if (!isAddressSchema(param.schema)) continue;
        const e = addressExample(path, name);
        param.examples = {
          bounceable: { summary: "bounceable, URL-safe base64", value: e.bounceable },
          non_bounceable: { summary: "non-bounceable, URL-safe base64", value: e.nonBounceable },
          raw: { summary: "raw workchain:hex", value: e.raw },
        };
      }
    }
  }
  const components = isObject(doc.components) ? doc.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  // Body schemas are shared by routes; a field's name alone picks its example.
  for (const schema of Object.values(schemas)) exemplify(schema, "", "");
  return document;
}
