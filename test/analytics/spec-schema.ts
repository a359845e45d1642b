// The response schemas of the official OpenAPI documents, as ajv validators:
// `schemaOf('abtesting-v3', 'ABTest')` checks an answer against
// `#/components/schemas/ABTest` of that document. The documents are read
// from test/fixtures/openapi (the conformance suite's copies), else from the
// workspace's spec folder. OpenAPI 3.0's `nullable: true` is turned into
// JSON Schema's `null` type; unknown keywords and formats are ignored.
import { existsSync, readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

const PLACES = [new URL('../fixtures/openapi/', import.meta.url), new URL('../../../shared/spec/openapi/', import.meta.url)];

const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, validateFormats: false });
const added = new Set<string>();

/** `nullable: true` → the type plus null; `$ref: '#/...'` → `<id>#/...`. */
function adapt(node: unknown, id: string): unknown {
  if (Array.isArray(node)) return node.map((n) => adapt(n, id));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${id}${v}` : adapt(v, id);
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

export function schemaOf(document: string, schema: string): ValidateFunction {
  const id = `https://lantern.invalid/${document}.yml`;
  if (!added.has(document)) {
    const place = PLACES.find((p) => existsSync(new URL(`${document}.yml`, p)));
    if (!place) throw new Error(`No copy of ${document}.yml`);
    const doc = parse(readFileSync(new URL(`${document}.yml`, place), 'utf8')) as Record<string, unknown>;
    ajv.addSchema({ $id: id, ...(adapt({ components: doc.components }, id) as object) });
    added.add(document);
  }
  return ajv.getSchema(`${id}#/components/schemas/${schema}`)!;
}

/** The validator's errors as text ('' when valid). */
export function violations(validate: ValidateFunction, value: unknown): string {
  return validate(value) ? '' : ajv.errorsText(validate.errors);
}
