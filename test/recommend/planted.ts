// Planted signals for the recommend suites: a catalogue, and insight events
// in which a known pattern hides among random noise (seeded, so a failure
// is the same every run).
import type { Lantern } from '../../src/lantern.js';

export const DAY = 86_400_000;
export const BRANDS = ['acme', 'globex', 'initech', 'umbrella'];

/** A small deterministic random source (mulberry32). */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` products p0..p(n-1): a brand each (p{i} has BRANDS[i % 4]), a price, a vector on a circle. */
export function products(n: number): Array<Record<string, unknown> & { objectID: string }> {
  return Array.from({ length: n }, (_, i) => ({
    objectID: `p${i}`, name: `Product ${i}`, brand: BRANDS[i % BRANDS.length], price: 10 + i,
    _vectors: { look: [Math.cos(i / n * 2 * Math.PI), Math.sin(i / n * 2 * Math.PI), 0.1] },
  }));
}

export interface PlantedEvent { eventType: 'click' | 'conversion'; eventName: string; index: string; userToken: string; objectIDs: string[]; timestamp: number }

export const conversion = (index: string, userToken: string, objectIDs: string[], timestamp: number): PlantedEvent =>
  ({ eventType: 'conversion', eventName: 'Purchased', index, userToken, objectIDs, timestamp });
export const click = (index: string, userToken: string, objectIDs: string[], timestamp: number): PlantedEvent =>
  ({ eventType: 'click', eventName: 'Viewed', index, userToken, objectIDs, timestamp });

/** Sends events through POST /1/events, 1,000 a call (`headers`: the credentials). */
export async function pushEvents(engine: Lantern, events: PlantedEvent[], headers: Record<string, string> = {}): Promise<void> {
  for (let i = 0; i < events.length; i += 1000) {
    const response = await engine.request({ method: 'POST', path: '/1/events', headers, body: { events: events.slice(i, i + 1000) } });
    if (response.status !== 200) throw new Error(`events refused: ${JSON.stringify(response.body)}`);
  }
}
