// One request of getRecommendations, checked: its model and what the model
// needs (an objectID, a facetName), threshold, maxRecommendations, and the
// search parameters applied to the recommendations and to the fallback.
import { badRequest, shown } from '../util/errors.js';
import { isPlainObject } from '../index/records.js';
import { parseSearchParams, type SearchParams } from '../index/params.js';

export const MODELS = ['bought-together', 'related-products', 'trending-items', 'trending-facets', 'looking-similar'] as const;
export type Model = typeof MODELS[number];

export interface RecommendRequest {
  model: Model;
  indexName: string;
  objectID?: string;
  facetName?: string;
  facetValue?: string;
  threshold: number;
  /** Undefined: every recommendation, and no fallback. */
  maxRecommendations?: number;
  queryParameters: SearchParams;
  fallbackParameters?: SearchParams;
}

const NEEDS_OBJECT: readonly Model[] = ['bought-together', 'related-products', 'looking-similar'];
const FIELDS = ['indexName', 'model', 'objectID', 'facetName', 'facetValue', 'threshold', 'maxRecommendations', 'queryParameters', 'fallbackParameters'];

function searchParams(value: unknown, where: string): SearchParams {
  if (!isPlainObject(value)) throw badRequest(`${where} must be an object of search parameters`);
  try {
    return parseSearchParams(value);
  } catch (e) {
    throw badRequest(`${where}: ${(e as Error).message}`);
  }
}

export function parseRequest(value: unknown, i: number): RecommendRequest {
  const at = `requests[${i}]`;
  if (!isPlainObject(value)) throw badRequest(`${at} must be an object, not ${shown(value)}`);
  const unknown = Object.keys(value).find((k) => !FIELDS.includes(k));
  if (unknown !== undefined) throw badRequest(`${at}.${unknown} is not a recommend request field (${FIELDS.join(', ')})`);
  const { indexName, model, objectID, facetName, facetValue, threshold, maxRecommendations } = value;
  if (typeof indexName !== 'string' || indexName === '') throw badRequest(`${at} needs an indexName`);
  if (!(MODELS as readonly unknown[]).includes(model)) throw badRequest(`${at}.model must be one of ${MODELS.join(', ')}, not ${shown(model)}`);
  const m = model as Model;
  if (NEEDS_OBJECT.includes(m) && (typeof objectID !== 'string' || objectID === '')) throw badRequest(`${at}: model ${m} needs the objectID of the viewed item`);
  if (m === 'trending-facets' && (typeof facetName !== 'string' || facetName === '')) throw badRequest(`${at}: model trending-facets needs a facetName`);
  if (facetName !== undefined && typeof facetName !== 'string') throw badRequest(`${at}.facetName must be a string`);
  if (facetValue !== undefined && typeof facetValue !== 'string') throw badRequest(`${at}.facetValue must be a string`);
  if (m === 'trending-items' && (facetName === undefined) !== (facetValue === undefined)) throw badRequest(`${at}: trending-items takes facetName and facetValue together`);
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 100)) throw badRequest(`${at}.threshold is required: a number from 0 to 100 (the lowest score returned)`);
  if (maxRecommendations !== undefined && (typeof maxRecommendations !== 'number' || !Number.isInteger(maxRecommendations) || maxRecommendations < 1 || maxRecommendations > 30)) {
    throw badRequest(`${at}.maxRecommendations must be an integer from 1 to 30`);
  }
  return {
    model: m, indexName, threshold,
    ...(typeof objectID === 'string' ? { objectID } : {}),
    ...(typeof facetName === 'string' ? { facetName } : {}),
    ...(typeof facetValue === 'string' ? { facetValue } : {}),
    ...(maxRecommendations !== undefined ? { maxRecommendations: maxRecommendations as number } : {}),
    queryParameters: value.queryParameters === undefined ? {} : searchParams(value.queryParameters, `${at}.queryParameters`),
    ...(value.fallbackParameters !== undefined ? { fallbackParameters: searchParams(value.fallbackParameters, `${at}.fallbackParameters`) } : {}),
  };
}
