// The `embedders` index setting (docs: /work/shared/spec/vectors.md): what
// each embedder is, checked when it is set; its secrets, masked for those
// who may not read them; the text a record is embedded from; and the hash
// that says a record's text did not change since its vector was computed.
// Model: Meilisearch's embedder settings (milli/src/vector/settings.rs).

import { badRequest, shown } from '../util/errors.js';

/** Records carry their own vectors (`_vectors: {name: [...]}`), queries theirs (`vector`). */
export interface UserProvidedEmbedderSettings {
  source: 'userProvided';
  dimensions: number;
}

/** An OpenAI-compatible embeddings API (OpenAI, Ollama, llama.cpp, vLLM, LM Studio, TEI). */
export interface RestEmbedderSettings {
  source: 'rest';
  url: string;
  model?: string;
  /** A secret: sent as `Authorization: Bearer`, masked by redactEmbedders. */
  apiKey?: string;
  dimensions: number;
  documentTemplate?: string;
  documentTemplateMaxBytes?: number;
  /** Sent with every request; those naming a credential are masked like apiKey. */
  headers?: Record<string, string>;
}

/** A function given in-process to `Lantern.open({ embedders })`, named here. */
export interface FunctionEmbedderSettings {
  source: 'function';
  name: string;
  dimensions: number;
  documentTemplate?: string;
  documentTemplateMaxBytes?: number;
}

export type EmbedderSettings = UserProvidedEmbedderSettings | RestEmbedderSettings | FunctionEmbedderSettings;
export type EmbedderSource = EmbedderSettings['source'];

/** Dimensions an embedder may have: the largest common models have 3072 (OpenAI's text-embedding-3-large). */
export const MAX_DIMENSIONS = 4096;
/**
 * The text embedded for a record is cut to this many UTF-8 bytes unless its
 * embedder says otherwise: about 300 English words, within the 512 tokens
 * that the small local models (BERT-sized) read, so no model truncates
 * silently a text Lantern thinks it embedded whole.
 */
export const DEFAULT_TEMPLATE_MAX_BYTES = 2000;
/** The largest documentTemplateMaxBytes: a request of 64 such texts stays under 4 MB. */
export const MAX_TEMPLATE_MAX_BYTES = 65536;

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** An HTTP header name (RFC 9110's token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A template tag: `{{doc.attribute}}` or `{{ doc.a.b }}`. */
const TAG = /\{\{\s*(.*?)\s*\}\}/g;
const DOC_PATH = /^doc((?:\.[^.\s{}]+)+)$/;

/** The fields each source takes, in the order an error lists them. */
const FIELDS: { [Source in EmbedderSource]: readonly string[] } = {
  userProvided: ['source', 'dimensions'],
  rest: ['source', 'url', 'model', 'apiKey', 'dimensions', 'documentTemplate', 'documentTemplateMaxBytes', 'headers'],
  function: ['source', 'name', 'dimensions', 'documentTemplate', 'documentTemplateMaxBytes'],
};
const SOURCES = Object.keys(FIELDS) as EmbedderSource[];

const invalid = (field: string, expected: string) => badRequest(`Invalid value for "${field}": expected ${expected}`);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The `embedders` setting, checked: every error is a 400 naming the
 * embedder and its field. null (the setting reset) is no embedder.
 */
export function parseEmbedders(value: unknown): Record<string, EmbedderSettings> {
  if (value === null || value === undefined) return {};
  if (!isObject(value)) throw invalid('embedders', 'an object of embedders by name');
  const embedders: Record<string, EmbedderSettings> = {};
  for (const [name, settings] of Object.entries(value)) {
    if (!NAME.test(name)) {
      throw badRequest(`Invalid embedder name ${shown(name)}: use 1 to 64 letters, digits, "_" or "-"`);
    }
    embedders[name] = parseEmbedder(`embedders.${name}`, settings);
  }
  return embedders;
}

function parseEmbedder(at: string, value: unknown): EmbedderSettings {
  if (!isObject(value)) throw invalid(at, 'an object with a "source"');
  const source = value.source;
  if (!SOURCES.includes(source as EmbedderSource)) {
    throw invalid(`${at}.source`, `one of ${SOURCES.map((s) => `"${s}"`).join(', ')}`);
  }
  const fields = FIELDS[source as EmbedderSource];
  for (const field of Object.keys(value)) {
    if (!fields.includes(field)) {
      throw badRequest(`Unknown field "${at}.${field}": a "${source}" embedder takes ${fields.join(', ')}`);
    }
  }
  const dimensions = integer(`${at}.dimensions`, value.dimensions, 1, MAX_DIMENSIONS);
  switch (source as EmbedderSource) {
    case 'userProvided':
      return { source: 'userProvided', dimensions };
    case 'function':
      return {
        source: 'function',
        name: text(`${at}.name`, value.name),
        dimensions,
        ...templateFields(at, value),
      };
    case 'rest':
      return {
        source: 'rest',
        url: httpUrl(`${at}.url`, value.url),
        ...optional('model', value.model, (v) => text(`${at}.model`, v)),
        ...optional('apiKey', value.apiKey, (v) => text(`${at}.apiKey`, v)),
        dimensions,
        ...templateFields(at, value),
        ...optional('headers', value.headers, (v) => headers(`${at}.headers`, v)),
      };
  }
}

/** `{ [key]: parse(value) }`, or nothing when the value is absent (undefined or null). */
function optional<Key extends string, T>(key: Key, value: unknown, parse: (value: unknown) => T): { [K in Key]?: T } {
  return value === undefined || value === null ? {} : { [key]: parse(value) } as { [K in Key]: T };
}

function templateFields(at: string, value: Record<string, unknown>) {
  return {
    ...optional('documentTemplate', value.documentTemplate, (v) => template(`${at}.documentTemplate`, v)),
    ...optional('documentTemplateMaxBytes', value.documentTemplateMaxBytes,
      (v) => integer(`${at}.documentTemplateMaxBytes`, v, 1, MAX_TEMPLATE_MAX_BYTES)),
  };
}

function integer(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `an integer from ${min} to ${max}, not ${shown(value)}`);
  }
  return value;
}

function text(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(field, 'a non-empty string');
  return value;
}

function httpUrl(field: string, value: unknown): string {
  const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw invalid(field, 'an http:// or https:// URL');
  }
  // settings are answered to keys without the admin right: a secret in the URL would be shown to them
  if (url.username || url.password) throw invalid(field, 'a URL without credentials (set apiKey or headers)');
  return value as string;
}

function headers(field: string, value: unknown): Record<string, string> {
  if (!isObject(value)) throw invalid(field, 'an object of header names and string values');
  const out: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(value)) {
    if (!HEADER_NAME.test(name)) throw invalid(field, `header names made of letters, digits and -, not ${shown(name)}`);
    if (typeof headerValue !== 'string' || /[\r\n\0]/.test(headerValue)) {
      throw invalid(`${field}.${name}`, 'a string on one line');
    }
    out[name] = headerValue;
  }
  return out;
}

function template(field: string, value: unknown): string {
  if (typeof value !== 'string') throw invalid(field, 'a string');
  for (const [tag, inner] of value.matchAll(TAG)) {
    if (!DOC_PATH.test(inner)) throw invalid(field, `tags of the form {{doc.attribute}}, not ${tag}`);
  }
  return value;
}

// ---------------------------------------------------------------------------
// Secrets

/** Header names whose values are credentials (Azure's api-key, x-api-key, Authorization...). */
export const isSecretHeader = (name: string): boolean => /authorization|key|token|secret|password/i.test(name);

/**
 * A secret as shown to those who may not read it: its first 3 characters
 * (enough to tell "sk-" from another kind) and "...", or "..." alone for a
 * short one, of which 3 characters would be a good part.
 */
export const maskSecret = (secret: string): string => (secret.length >= 12 ? `${secret.slice(0, 3)}...` : '...');

/** The embedders with their API keys and credential headers masked: for getSettings without the admin right, and logs. */
export function redactEmbedders(embedders: Record<string, EmbedderSettings>): Record<string, EmbedderSettings> {
  return mapRest(embedders, (settings) => ({
    ...settings,
    ...(settings.apiKey !== undefined && { apiKey: maskSecret(settings.apiKey) }),
    ...(settings.headers && { headers: mapSecretHeaders(settings.headers, (value) => maskSecret(value)) }),
  }));
}

/**
 * `next` with the secrets a client sent back masked (it read them from a
 * redacted getSettings) replaced by those `current` holds: a masked value
 * sent back means "unchanged", as in Meilisearch. Any other value is a new secret.
 */
export function mergeEmbedderSecrets(
  next: Record<string, EmbedderSettings>,
  current: Record<string, EmbedderSettings>,
): Record<string, EmbedderSettings> {
  return mapRest(next, (settings, name) => {
    const stored = current[name];
    if (stored?.source !== 'rest') return settings;
    const kept = (sent: string, secret: string | undefined) => (secret !== undefined && sent === maskSecret(secret) ? secret : sent);
    const storedHeader = (header: string) =>
      Object.entries(stored.headers ?? {}).find(([name]) => name.toLowerCase() === header.toLowerCase())?.[1];
    return {
      ...settings,
      ...(settings.apiKey !== undefined && { apiKey: kept(settings.apiKey, stored.apiKey) }),
      ...(settings.headers && { headers: mapSecretHeaders(settings.headers, (value, header) => kept(value, storedHeader(header))) }),
    };
  });
}

function mapRest(
  embedders: Record<string, EmbedderSettings>,
  change: (settings: RestEmbedderSettings, name: string) => RestEmbedderSettings,
): Record<string, EmbedderSettings> {
  return Object.fromEntries(Object.entries(embedders).map(([name, settings]) =>
    [name, settings.source === 'rest' ? change(settings, name) : settings]));
}

function mapSecretHeaders(headers: Record<string, string>, change: (value: string, name: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, isSecretHeader(name) ? change(value, name) : value]));
}

/**
 * Whether vectors computed under `before` are still valid under `after`:
 * the same source, endpoint or function, model and dimensions. A changed
 * template changes the texts, so their hashes; a changed key or header does
 * not change the vectors.
 */
export function sameVectorSpace(before: EmbedderSettings, after: EmbedderSettings): boolean {
  if (before.source !== after.source || before.dimensions !== after.dimensions) return false;
  if (before.source === 'rest' && after.source === 'rest') return before.url === after.url && before.model === after.model;
  if (before.source === 'function' && after.source === 'function') return before.name === after.name;
  return true;
}

// ---------------------------------------------------------------------------
// The text a record is embedded from

/**
 * The text embedded for `record`: its embedder's template filled in
 * (`{{doc.a.b}}` is the record's a.b: arrays joined by ", ", objects as
 * JSON, absent values empty), or without a template a "name: value" line
 * for each searchable attribute with a value (every attribute in the
 * record's order when `searchableAttributes` is null; never objectID or
 * _vectors). Cut to `maxBytes` UTF-8 bytes, at a word's end when it can.
 * `searchableAttributes`: attribute names, dotted for nested ones (the
 * names of src/index/settings.ts searchableAttributes()).
 */
export function documentText(
  template: string | undefined,
  record: Record<string, unknown>,
  searchableAttributes: string[] | null,
  maxBytes = DEFAULT_TEMPLATE_MAX_BYTES,
): string {
  const text = template === undefined
    ? defaultText(record, searchableAttributes)
    : template.replace(TAG, (tag, inner: string) => {
      const path = DOC_PATH.exec(inner);
      return path ? textOf(valueAt(record, path[1].slice(1).split('.'))) : tag;
    });
  return cutToBytes(text.trim(), maxBytes);
}

const NEVER_EMBEDDED = new Set(['objectID', '_vectors']);

function defaultText(record: Record<string, unknown>, searchableAttributes: string[] | null): string {
  const names = (searchableAttributes ?? Object.keys(record)).filter((name) => !NEVER_EMBEDDED.has(name));
  const lines: string[] = [];
  for (const name of new Set(names)) {
    const value = textOf(valueAt(record, name.split('.')));
    if (value !== '') lines.push(`${name}: ${value}`);
  }
  return lines.join('\n');
}

function valueAt(record: unknown, path: string[]): unknown {
  let value = record;
  for (const key of path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(textOf).filter((part) => part !== '').join(', ');
  if (isObject(value)) return JSON.stringify(value);
  return '';
}

/** `text` in at most `maxBytes` UTF-8 bytes: never half a character, and a whole word when a space comes before the cut. */
function cutToBytes(text: string, maxBytes: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--; // a continuation byte: back to the character's start
  const cut = new TextDecoder().decode(bytes.subarray(0, end));
  const cutInWord = !/\s/.test(String.fromCharCode(bytes[end]));
  const lastSpace = cut.search(/\s\S*$/);
  return (cutInWord && lastSpace > 0 ? cut.slice(0, lastSpace) : cut).trimEnd();
}

// ---------------------------------------------------------------------------
// The text's hash

const FNV64_OFFSET_HIGH = 0xcbf29ce4;
const FNV64_OFFSET_LOW = 0x84222325;
/** The FNV 64-bit prime, 2^40 + 0x1b3: a multiplication by it is one by 0x1b3 plus a shift by 40. */
const FNV64_PRIME_LOW = 0x1b3;

/**
 * FNV-1a 64 of the text's UTF-8 bytes, as 16 hex digits: synchronous (the
 * write path hashes every record's text; WebCrypto's digests are async) and
 * stable across versions and platforms, which a stored hash must be. 64
 * bits: two texts of one record would collide once in 2^64, not the 2^32
 * of FNV-1a 32 a large index could reach. Not a defence against a chosen
 * collision: a record's author gains nothing by one (their record keeps an
 * older vector of their own text).
 */
export function textHash(text: string): string {
  let high = FNV64_OFFSET_HIGH;
  let low = FNV64_OFFSET_LOW;
  for (const byte of new TextEncoder().encode(text)) {
    low ^= byte;
    // (high * 2^32 + low) * (2^40 + 0x1b3) mod 2^64, in 32-bit halves
    const lowProduct = (low >>> 0) * FNV64_PRIME_LOW; // < 2^41: exact in a double
    high = (Math.imul(high, FNV64_PRIME_LOW) + Math.floor(lowProduct / 0x100000000) + (low << 8)) >>> 0;
    low = lowProduct >>> 0;
  }
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}

/** Settings (or a change of them) with their embedders' secrets masked: what leaves the admin's hands (followers, logs, other keys). */
export function withoutSecrets<T extends { embedders?: Record<string, EmbedderSettings> | null }>(settings: T): T {
  return settings.embedders ? { ...settings, embedders: redactEmbedders(settings.embedders) } : settings;
}
