// A query suggestions configuration: which indexes' popular searches become
// suggestions, and the rules a suggestion must pass. Field names, defaults
// and limits are the service's (minHits 5, minLetters 4); a wrong field is
// a 400 with a message, an unknown one too (the service's schema allows none).
import { badRequest } from '../util/errors.js';
import { checkIndexName } from '../index/index-name.js';
import { isPlainObject } from '../index/records.js';

export interface FacetConfig { attribute: string; amount: number }

export interface SourceIndexConfig {
  indexName: string;
  replicas: boolean;
  analyticsTags: string[] | null;
  facets: FacetConfig[] | null;
  minHits: number;
  minLetters: number;
  generate: string[][] | null;
  external: string[] | null;
}

export interface SuggestionsConfig {
  indexName: string;
  sourceIndices: SourceIndexConfig[];
  /** Plural deduplication: true, or languages (English rules apply for "en"). */
  languages: string[] | boolean;
  exclude: string[] | null;
  /** Stored and returned; suggestions are not personalized. */
  enablePersonalization: boolean;
  allowSpecialCharacters: boolean;
}

export const MAX_CONFIGS = 100;
const DEFAULT_MIN_HITS = 5;
const DEFAULT_MIN_LETTERS = 4;
const DEFAULT_FACET_AMOUNT = 1;

const SOURCE_FIELDS = ['indexName', 'replicas', 'analyticsTags', 'facets', 'minHits', 'minLetters', 'generate', 'external'];
const CONFIG_FIELDS = ['indexName', 'appID', 'sourceIndices', 'languages', 'exclude', 'enablePersonalization', 'allowSpecialCharacters'];

function checkFields(value: Record<string, unknown>, allowed: string[], where: string): void {
  const unknown = Object.keys(value).find((k) => !allowed.includes(k));
  if (unknown !== undefined) throw badRequest(`${where}: unknown field "${unknown}"`);
}

function count(value: unknown, fallback: number, where: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || (value as number) < 0) throw badRequest(`${where} must be a non-negative integer`);
  return value as number;
}

function flag(value: unknown, fallback: boolean, where: string): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw badRequest(`${where} must be a boolean`);
  return value;
}

function strings(value: unknown, where: string): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v !== '')) {
    throw badRequest(`${where} must be an array of non-empty strings`);
  }
  return value;
}

function facets(value: unknown, where: string): FacetConfig[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw badRequest(`${where} must be an array of {attribute, amount}`);
  return value.map((f, i) => {
    if (!isPlainObject(f) || typeof f.attribute !== 'string' || f.attribute === '') {
      throw badRequest(`${where}[${i}].attribute must be a non-empty string`);
    }
    checkFields(f, ['attribute', 'amount'], `${where}[${i}]`);
    const amount = count(f.amount, DEFAULT_FACET_AMOUNT, `${where}[${i}].amount`);
    if (amount === 0) throw badRequest(`${where}[${i}].amount must be at least 1`);
    return { attribute: f.attribute, amount };
  });
}

/** `generate`: lists of facet attributes; a bare attribute stands for a list of one. */
function generate(value: unknown, where: string): string[][] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw badRequest(`${where} must be an array of arrays of facet attributes`);
  return value.map((entry, i) => strings(typeof entry === 'string' ? [entry] : entry, `${where}[${i}]`) ?? []);
}

function sourceIndex(value: unknown, i: number): SourceIndexConfig {
  const where = `sourceIndices[${i}]`;
  if (!isPlainObject(value)) throw badRequest(`${where} must be an object`);
  checkFields(value, SOURCE_FIELDS, where);
  if (typeof value.indexName !== 'string') throw badRequest(`${where}.indexName is required`);
  return {
    indexName: checkIndexName(value.indexName),
    replicas: flag(value.replicas, false, `${where}.replicas`),
    analyticsTags: strings(value.analyticsTags, `${where}.analyticsTags`),
    facets: facets(value.facets, `${where}.facets`),
    minHits: count(value.minHits, DEFAULT_MIN_HITS, `${where}.minHits`),
    minLetters: count(value.minLetters, DEFAULT_MIN_LETTERS, `${where}.minLetters`),
    generate: generate(value.generate, `${where}.generate`),
    external: strings(value.external, `${where}.external`),
  };
}

function languages(value: unknown): string[] | boolean {
  if (value === undefined) return [];
  if (typeof value === 'boolean') return value;
  return strings(value, 'languages') ?? [];
}

/** An exclusion is a word or a regular expression; one that does not compile is refused here. */
function exclusions(value: unknown): string[] | null {
  const list = strings(value, 'exclude');
  for (const pattern of list ?? []) {
    try {
      new RegExp(pattern, 'iu');
    } catch {
      throw badRequest(`exclude: "${pattern}" is not a valid regular expression`);
    }
  }
  return list;
}

/**
 * A configuration from a request body. `indexName` comes from the path (spec
 * form) or the body (the client's create); when both are given they agree.
 */
export function parseConfig(body: unknown, pathIndexName?: string): SuggestionsConfig {
  if (!isPlainObject(body)) throw badRequest('The configuration must be a JSON object');
  checkFields(body, CONFIG_FIELDS, 'configuration');
  const indexName = pathIndexName ?? body.indexName;
  if (typeof indexName !== 'string') throw badRequest('indexName is required');
  if (body.indexName !== undefined && body.indexName !== indexName) throw badRequest('indexName in the body differs from the path');
  if (!Array.isArray(body.sourceIndices) || body.sourceIndices.length === 0) throw badRequest('sourceIndices must be a non-empty array');
  const sourceIndices = body.sourceIndices.map(sourceIndex);
  if (sourceIndices.some((s) => s.indexName === indexName)) throw badRequest('The suggestions index cannot be one of its source indices');
  return {
    indexName: checkIndexName(indexName),
    sourceIndices,
    languages: languages(body.languages),
    exclude: exclusions(body.exclude),
    enablePersonalization: flag(body.enablePersonalization, false, 'enablePersonalization'),
    allowSpecialCharacters: flag(body.allowSpecialCharacters, false, 'allowSpecialCharacters'),
  };
}

/** A configuration as GET answers it (and as it can be sent back). */
export function describeConfig(config: SuggestionsConfig, appID: string | undefined) {
  return { ...(appID !== undefined ? { appID } : {}), ...config };
}
