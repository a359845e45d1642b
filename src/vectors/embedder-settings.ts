// Stand-in for the embedders setting (replaced by the full module).
import { badRequest } from '../util/errors.js';
import { isPlainObject } from '../index/records.js';

export type EmbedderSettings =
  | { source: 'userProvided'; dimensions: number }
  | { source: 'rest'; url: string; model?: string; apiKey?: string; dimensions: number; documentTemplate?: string; headers?: Record<string, string> }
  | { source: 'function'; name: string; dimensions: number; documentTemplate?: string };

export function parseEmbedders(value: unknown): Record<string, EmbedderSettings> {
  if (!isPlainObject(value)) throw badRequest('Invalid value for "embedders": expected an object');
  for (const [name, e] of Object.entries(value)) {
    if (!isPlainObject(e)) throw badRequest(`Invalid value for "embedders.${name}": expected an object`);
    if (!['userProvided', 'rest', 'function'].includes(e.source as string)) throw badRequest(`Invalid value for "embedders.${name}.source"`);
    if (!Number.isInteger(e.dimensions) || (e.dimensions as number) < 1) throw badRequest(`Invalid value for "embedders.${name}.dimensions": expected a positive integer`);
  }
  return value as Record<string, EmbedderSettings>;
}

export function redactEmbedders(embedders: Record<string, EmbedderSettings>): Record<string, EmbedderSettings> {
  return Object.fromEntries(Object.entries(embedders).map(([n, e]) => [n, 'apiKey' in e && e.apiKey ? { ...e, apiKey: `${e.apiKey.slice(0, 3)}...` } : e]));
}

export function documentText(_template: string | undefined, record: Record<string, unknown>, _searchable: string[] | null): string {
  return Object.entries(record).filter(([k]) => k !== 'objectID' && k !== '_vectors').map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('\n');
}

export function textHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}
