// A/B tests: what is stored, the state machine (active → stopped | expired;
// failed at creation), the creation rules, and the deterministic traffic split.
import { ApiError, notFound } from '../util/errors.js';
import { isPlainObject } from '../index/records.js';
import { parseSearchParams, type SearchParams } from '../index/params.js';

export interface VariantConfig {
  index: string;
  trafficPercentage: number;
  description: string;
  customSearchParameters?: SearchParams;
}

export type Status = 'active' | 'stopped' | 'expired' | 'failed';

export interface ABTest {
  abTestID: number;
  name: string;
  createdAt: string;
  updatedAt: string;
  endAt: string;
  stoppedAt?: string;
  /** Stored status; `active` turns `expired` once endAt has passed (see statusOf). */
  status: Exclude<Status, 'expired'>;
  variants: [VariantConfig, VariantConfig];
  /** v3 only (v3.ts): the metrics the test reports, as created; absent (every metric) for a test created through v2. */
  metrics?: MetricChoice[];
  /** v3 only: the configuration given at creation. */
  configuration?: Record<string, unknown>;
}

/** A metric a v3 test reports: its name (`click_through_rate`), and a currency for revenue. */
export interface MetricChoice { name: string; dimension?: string }

const invalid = (message: string) => new ApiError('unprocessable', message);

export function statusOf(test: ABTest, now = Date.now()): Status {
  return test.status === 'active' && Date.parse(test.endAt) < now ? 'expired' : test.status;
}

/** What every answer about a test starts with, in v2 and v3 alike. */
export function testHeader(test: ABTest, now = Date.now()) {
  return {
    abTestID: test.abTestID,
    name: test.name,
    createdAt: test.createdAt,
    updatedAt: test.updatedAt,
    endAt: test.endAt,
    stoppedAt: test.stoppedAt ?? null,
    status: statusOf(test, now),
  };
}

/** Default end: today 23:59:59 UTC (inclusive). */
function endOfToday(now: number): string {
  return `${new Date(now).toISOString().slice(0, 10)}T23:59:59Z`;
}

function parseVariant(value: unknown, i: number): VariantConfig {
  if (!isPlainObject(value)) throw invalid(`variants[${i}] must be an object`);
  const { index, trafficPercentage, description, customSearchParameters } = value;
  if (typeof index !== 'string' || index === '') throw invalid(`variants[${i}].index is required`);
  if (typeof trafficPercentage !== 'number' || !Number.isInteger(trafficPercentage) || trafficPercentage < 1 || trafficPercentage > 99) {
    throw invalid(`variants[${i}].trafficPercentage must be an integer between 1 and 99`);
  }
  if (description !== undefined && typeof description !== 'string') throw invalid(`variants[${i}].description must be a string`);
  const variant: VariantConfig = { index, trafficPercentage, description: description ?? '' };
  if (customSearchParameters !== undefined) {
    if (!isPlainObject(customSearchParameters)) throw invalid(`variants[${i}].customSearchParameters must be an object`);
    try {
      variant.customSearchParameters = parseSearchParams(customSearchParameters);
    } catch (e) {
      throw invalid(`variants[${i}].customSearchParameters: ${(e as Error).message}`);
    }
  }
  return variant;
}

/** The two variants of a test (or of an estimate): 422 when invalid, 404 for a missing index. */
export function parseVariants(variants: unknown, indexExists: (name: string) => boolean): [VariantConfig, VariantConfig] {
  if (!Array.isArray(variants) || variants.length !== 2) throw invalid('An A/B test needs exactly 2 variants');
  const [a, b] = variants.map(parseVariant);
  if (a.trafficPercentage + b.trafficPercentage !== 100) throw invalid('The variants\' trafficPercentage must add up to 100');
  if (a.index === b.index && !a.customSearchParameters && !b.customSearchParameters) {
    throw invalid('Both variants target the same index: one of them needs customSearchParameters');
  }
  for (const v of [a, b]) if (!indexExists(v.index)) throw notFound(`Index ${v.index} does not exist`);
  return [a, b];
}

/** A new test from a create request; 422 for an invalid payload, 404 for a missing index. */
export function newABTest(body: unknown, id: number, now: number, indexExists: (name: string) => boolean): ABTest {
  if (!isPlainObject(body)) throw invalid('The body must be an object');
  const { name, variants, endAt } = body;
  if (typeof name !== 'string' || name.trim() === '') throw invalid('name is required');
  const [a, b] = parseVariants(variants, indexExists);
  const end = endAt === undefined ? endOfToday(now) : endAt;
  if (typeof end !== 'string' || Number.isNaN(Date.parse(end))) throw invalid('endAt must be a date-time');
  if (Date.parse(end) <= now) throw invalid('endAt must be in the future');
  const at = new Date(now).toISOString();
  return { abTestID: id, name, createdAt: at, updatedAt: at, endAt: new Date(Date.parse(end)).toISOString(), status: 'active', variants: [a, b] };
}

export function indexesOf(test: ABTest): string[] {
  return [...new Set(test.variants.map((v) => v.index))];
}

/** The running test on `indexName` as variant A (where searches are split), if any. */
export function runningTestOn(tests: Iterable<ABTest>, indexName: string, now = Date.now()): ABTest | undefined {
  for (const test of tests) if (statusOf(test, now) === 'active' && test.variants[0].index === indexName) return test;
  return undefined;
}

/** A running test on any of the indexes (one test per index at a time). */
export function conflictingTest(tests: Iterable<ABTest>, indexes: string[], now = Date.now()): ABTest | undefined {
  for (const test of tests) {
    if (statusOf(test, now) === 'active' && indexesOf(test).some((i) => indexes.includes(i))) return test;
  }
  return undefined;
}

/** FNV-1a: a stable 32-bit hash (the same user lands in the same variant on every call and every process). */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
}

/** Variant 1 (A) or 2 (B) of `user`: a bucket 0..99 from the test id and the user, below A's share → A. */
export function variantOf(test: ABTest, user: string): 1 | 2 {
  return hash32(`${test.abTestID}:${user}`) % 100 < test.variants[0].trafficPercentage ? 1 : 2;
}
