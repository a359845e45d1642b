// Planted signals for the recommend suites: a catalogue, and insight events
// in which a known pattern hides among random noise (seeded, so a failure
// is the same every run).
import type { Lantern } from '../../src/lantern.js';
import { prng as random } from '../support/random.js';

export const DAY = 86_400_000;
export const BRANDS = ['acme', 'globex', 'initech', 'umbrella'];

/** `n` products p0..p(n-1): a brand each (p{i} has BRANDS[i % 4]), a price, a vector on a circle. */
export function products(n: number): Array<Record<string, unknown> & { objectID: string }> {
  return Array.from({ length: n }, (_, i) => ({
    objectID: `p${i}`, name: `Product ${i}`, brand: BRANDS[i % BRANDS.length], price: 10 + i,
    _vectors: { look: [Math.cos(i / n * 2 * Math.PI), Math.sin(i / n * 2 * Math.PI), 0.1] },
  }));
}

/**
 * A time in the UTC day `daysAgo` days before `now`'s, at `share` (0..1) of
 * it, never after `now`. The models count by UTC day, so a time taken as
 * `now` minus hours would fall a day early when a run starts past midnight.
 */
export function dayTime(now: number, daysAgo: number, share: number): number {
  const dayStart = (Math.floor(now / DAY) - daysAgo) * DAY;
  return dayStart + Math.floor(share * (daysAgo === 0 ? now - dayStart : DAY - 1));
}

export interface PlantedEvent { eventType: 'click' | 'conversion'; eventName: string; index: string; userToken: string; objectIDs: string[]; timestamp: number }

export const conversion = (index: string, userToken: string, objectIDs: string[], timestamp: number): PlantedEvent =>
  ({ eventType: 'conversion', eventName: 'Purchased', index, userToken, objectIDs, timestamp });
export const click = (index: string, userToken: string, objectIDs: string[], timestamp: number): PlantedEvent =>
  ({ eventType: 'click', eventName: 'Viewed', index, userToken, objectIDs, timestamp });

/**
 * The planted events of `index` (products p0..p39), as of `now`: bought
 * together (p1+p2), two taste groups (clicks on p0..p9, on p20..p29), p7
 * rising; random noise around them.
 */
export function plantedEvents(index: string, now: number): PlantedEvent[] {
  const rnd = random(7);
  const pick = () => `p${Math.floor(rnd() * 40)}`;
  const events: PlantedEvent[] = [];
  const at = (daysAgo: number) => dayTime(now, daysAgo, rnd());
  for (let u = 0; u < 30; u++) {
    events.push(conversion(index, `buyer${u}`, ['p1', 'p2'], at(u % 3)));
    for (let k = 0; k < 3; k++) events.push(conversion(index, `buyer${u}`, [pick()], at(1 + (k % 2))));
  }
  for (let u = 0; u < 60; u++) {
    const taste = u < 30 ? 0 : 20;
    for (let k = 0; k < 6; k++) events.push(click(index, `taster${u}`, [`p${taste + Math.floor(rnd() * 10)}`], at(k % 3)));
    events.push(click(index, `taster${u}`, [pick()], at(2)));
  }
  // p7 rising: 1 a day before, 25 today; p20 steady at 5 a day
  for (let d = 1; d <= 3; d++) events.push(conversion(index, `early${d}`, ['p7'], at(d)));
  for (let k = 0; k < 25; k++) events.push(conversion(index, `fan${k}`, ['p7'], dayTime(now, 0, 1 - k / 25)));
  for (let d = 0; d <= 3; d++) for (let k = 0; k < 5; k++) events.push(conversion(index, `steady${d}_${k}`, ['p20'], d === 0 ? dayTime(now, 0, 1 - k / 5) : at(d)));
  return events;
}

/** Sends events through POST /1/events, 1,000 a call (`headers`: the credentials). */
export async function pushEvents(engine: Lantern, events: PlantedEvent[], headers: Record<string, string> = {}): Promise<void> {
  for (let i = 0; i < events.length; i += 1000) {
    const response = await engine.request({ method: 'POST', path: '/1/events', headers, body: { events: events.slice(i, i + 1000) } });
    if (response.status !== 200) throw new Error(`events refused: ${JSON.stringify(response.body)}`);
  }
}
