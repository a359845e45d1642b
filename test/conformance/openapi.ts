// The service's official OpenAPI documents (test/fixtures/openapi/*.yml,
// copied unchanged from algolia/api-clients-automation: see the README
// there) read as the conformance suite needs them: every operation, and an
// ajv validator for the body each of its 2xx answers has.
//
// The documents are OpenAPI 3.0: their schemas are JSON Schema with
// `nullable`, `example`, `x-*` and `$ref`s into the document itself. Each
// document is added to ajv (draft 2019-09, for unevaluatedProperties) whole,
// under an $id of its own, after
//   - every `$ref: '#/...'` is made absolute (`<id>#/...`), so any schema
//     in it compiles on its own;
//   - `nullable: true` is turned into JSON Schema (`type: [X, 'null']`, or
//     `anyOf: [..., {type: 'null'}]` when the schema has no `type`).
//   - `allOf` is read as a merge of its members (see toJsonSchema);
//   - `oneOf` is read as `anyOf`: the generated clients take the first
//     member that decodes, and the documents' members overlap (a search
//     result is a searchResponse, a searchForFacetValuesResponse or a
//     searchResponsePartial, which every hits result also matches).
// Unknown keywords (`example`, `x-*`, `discriminator`...) are ignored
// (`strict: false`); the OpenAPI formats int32/int64/float/double check
// numbers, the others come from ajv-formats.
//
// Used by operations.test.ts: `npx vitest run test/conformance`.
import { readFileSync, readdirSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

const DIR = new URL('../fixtures/openapi/', import.meta.url);
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

/** The generic operations every client has (`/{path}`: any path of the host), left out of the table. */
export const GENERIC_OPERATIONS = ['customGet', 'customPost', 'customPut', 'customDelete'];

export interface Operation {
  /** The document's file name without `.yml`: `search`, `abtesting-v3`... */
  document: string;
  operationId: string;
  /** `<document>:<operationId>` (operationIds repeat across documents: abtesting and abtesting-v3). */
  key: string;
  method: string;
  /** As the document writes it: `/1/indexes/{indexName}/task/{taskID}`. */
  path: string;
  /** The 2xx statuses the document answers, with their body's schema (undefined: no body). */
  success: Record<string, Schema | undefined>;
}

type Schema = Record<string, unknown>;
type Document = { paths: Record<string, Record<string, Record<string, unknown>>>; [key: string]: unknown };

export interface OpenApi {
  documents: Record<string, Document>;
  /** Every HTTP operation of every document, in document order (client helpers and the generic operations left out). */
  operations: Operation[];
  /** The operations left out: `x-helper` (computed by the client, no request of their own) and the generic ones. */
  excluded: string[];
  /** The validator of `operation`'s answer with `status`; null when the document gives that status no body. */
  validator(operation: Operation, status: number): ValidateFunction | null;
}

const idOf = (document: string) => `https://lantern.invalid/openapi/${document}.yml`;

/** Reads every document in test/fixtures/openapi and compiles validators as they are asked for. */
export function loadOpenApi(): OpenApi {
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false, verbose: false });
  addFormats(ajv);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });

  const documents: Record<string, Document> = {};
  const operations: Operation[] = [];
  const excluded: string[] = [];
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.yml')).sort()) {
    const name = file.slice(0, -'.yml'.length);
    const raw = parse(readFileSync(new URL(file, DIR), 'utf8')) as Document;
    documents[name] = raw;
    const schema = toJsonSchema(raw, idOf(name), raw) as Schema;
    ajv.addSchema({ ...schema, $id: idOf(name) });
    for (const [path, item] of Object.entries(raw.paths)) {
      for (const method of METHODS) {
        const op = item[method] as Record<string, unknown> | undefined;
        if (!op) continue;
        const operationId = op.operationId as string;
        if (op['x-helper'] || GENERIC_OPERATIONS.includes(operationId)) {
          excluded.push(`${name}:${operationId}`);
          continue;
        }
        const success: Record<string, Schema | undefined> = {};
        for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Schema>)) {
          if (!status.startsWith('2')) continue;
          const resolved = deref(raw, response);
          const content = resolved.content as Record<string, { schema?: Schema }> | undefined;
          success[status] = content?.['application/json']?.schema;
        }
        operations.push({ document: name, operationId, key: `${name}:${operationId}`, method: method.toUpperCase(), path, success });
      }
    }
  }

  const compiled = new Map<Schema, ValidateFunction>();
  return {
    documents,
    operations,
    excluded,
    validator(operation, status) {
      const schema = operation.success[String(status)];
      if (!schema) return null;
      let validate = compiled.get(schema);
      if (!validate) {
        validate = ajv.compile(toJsonSchema(schema, idOf(operation.document), documents[operation.document]!) as Schema);
        compiled.set(schema, validate);
      }
      return validate;
    },
  };
}

/** Follows `$ref: '#/a/b'` within the document (responses may be references to `#/components/responses/...`). */
function deref(document: Document, value: Schema): Schema {
  let current = value;
  for (let i = 0; i < 10 && typeof current.$ref === 'string' && current.$ref.startsWith('#/'); i++) {
    current = pointer(document, current.$ref.slice(1)) as Schema;
  }
  return current;
}

function pointer(root: unknown, path: string): unknown {
  return path.split('/').slice(1).reduce<unknown>((node, part) => (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')], root);
}

/**
 * A copy of `value` with internal refs made absolute, OpenAPI's `nullable`
 * turned into JSON Schema, and `allOf` read as the documents mean it (the
 * generators merge its members into one model): a member's
 * `additionalProperties: false` would refuse its siblings' properties, so the
 * members are inlined open and the whole is closed instead
 * (`unevaluatedProperties: false`, unless the schema says otherwise).
 * `oneOf` becomes `anyOf` (see the header).
 */
function toJsonSchema(value: unknown, id: string, document: Document, open = false): unknown {
  if (Array.isArray(value)) return value.map((v) => toJsonSchema(v, id, document));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === '$ref' && typeof v === 'string' && v.startsWith('#')) out.$ref = id + v;
    else if (key === 'allOf' && Array.isArray(v)) out.allOf = v.map((member) => openMember(member, id, document));
    else if (key === 'oneOf' && !('anyOf' in value)) out.anyOf = toJsonSchema(v, id, document);
    else out[key] = toJsonSchema(v, id, document);
  }
  if (Array.isArray(out.allOf)) {
    const closed = (value as Schema).allOf && (out.allOf as Schema[]).some((m) => m[CLOSED]);
    for (const member of out.allOf as Schema[]) delete member[CLOSED];
    if (closed && out.additionalProperties === undefined) {
      if (open) out[CLOSED] = true;
      else out.unevaluatedProperties = false;
    }
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    } else {
      const inner = { ...out };
      for (const key of Object.keys(out)) delete out[key];
      out.anyOf = [inner, { type: 'null' }];
    }
  }
  return out;
}

/** Marks (while converting) an allOf member that was closed. */
const CLOSED = '__closed';

/** An allOf member inlined without its `additionalProperties: false` (marked CLOSED when it had it). */
function openMember(member: unknown, id: string, document: Document): Schema {
  const resolved = deref(document, member as Schema);
  const { additionalProperties, ...rest } = resolved;
  const converted = toJsonSchema(additionalProperties === false ? rest : resolved, id, document, true) as Schema;
  if (additionalProperties === false) converted[CLOSED] = true;
  return converted;
}

/** ajv's errors, one line each, `at /path: message (params)`. */
export function formatErrors(errors: ErrorObject[] | null | undefined, limit = 8): string {
  if (!errors?.length) return '';
  const lines = errors.slice(0, limit).map((e) => `at ${e.instancePath || '/'}: ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);
  if (errors.length > limit) lines.push(`... and ${errors.length - limit} more`);
  return lines.join('\n');
}

/** Whether a request `method path` (a path without its query) is `operation`'s: `{name}` matches one segment. */
export function matchesOperation(operation: Operation, method: string, path: string): boolean {
  if (method.toUpperCase() !== operation.method) return false;
  const pattern = operation.path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`).test(path);
}
