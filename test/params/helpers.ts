// Shared helpers for the search-parameter suites: an engine with admin
// credentials, a request function, the fixtures and small JS oracles
// (haversine, facet counting) the tests compare the engine against.
import { expect } from 'vitest';
import { Lantern } from '../../src/index.js';
import { readFixture as fixture, talksSettings } from '../support/fixtures.js';
import { expectError, sender, type Response, type Send } from '../support/api.js';

export { expectError, fixture, talksSettings, type Response, type Send };

export const APP_ID = 'PARAMSAPP';
export const ADMIN_KEY = 'params-admin-key';
export const HEADERS = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY };

export async function openEngine(): Promise<{ engine: Lantern; send: Send }> {
  const engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY });
  return { engine, send: sender(engine, HEADERS) };
}

export interface Talk {
  objectID: string; name: string; description: string; speakers: string[]; tags: string[]; languages: string[];
  event_name: string; date: number; duration_range: number; viewed_count: number; [k: string]: unknown;
}

/** A search as the admin on `index` (default `defaultIndex`) that must answer 200, with `defaults` under `params`. */
export function searcher(send: Send, defaultIndex: string, defaults: Record<string, unknown> = {}) {
  return async (params: Record<string, unknown>, index = defaultIndex): Promise<any> => {
    const response = await send('POST', `/1/indexes/${index}/query`, { ...defaults, ...params });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };
}

/** Indexes the TED talks as `indexName` with the fixture settings (plus `extra`). */
export async function indexTalks(engine: Lantern, indexName = 'talks', extra: Record<string, unknown> = {}): Promise<Talk[]> {
  const talks = fixture<Talk[]>('talks.json');
  const client = engine.client();
  await client.setSettings({ indexName, indexSettings: { ...talksSettings(), ...extra } });
  await client.saveObjects({ indexName, objects: talks as any });
  await engine.waitForTasks();
  return talks;
}

export const ids = (response: { hits: Array<{ objectID: string }> }): string[] => response.hits.map((h) => h.objectID);
export const sorted = (list: string[]): string[] => [...list].sort();

/** Lower-case, diacritics removed (the engine's normalisation). */
export const fold = (s: string): string => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** Great-circle distance in metres. */
export function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Facet counts of `attribute` over `records` (array values counted once per record). */
export function countFacet<T extends Record<string, any>>(records: T[], attribute: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records) {
    const raw = r[attribute];
    const values = new Set((Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String));
    for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  }
  return counts;
}

/** Values sorted by decreasing count (ties: value order), as the engine returns them. */
export function topValues(counts: Record<string, number>, n: number): Array<[string, number]> {
  return Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, n);
}
