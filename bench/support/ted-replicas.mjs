// The TED talks with their real settings, as a user of the hosted service
// has them: the primary's settings (customRanking, searchable facets,
// distinct on speakers) and its 12 sort replicas, and records drawn from the
// 2,356 talks, each talk under several objectIDs to reach any size. Shared
// by the benches that write on real records (single-writes, reads-under-writes).
import { readFileSync } from 'node:fs';

const FIXTURES = new URL('../../test/fixtures/', import.meta.url);
/** @type {(name: string) => any} */
const readJson = (name) => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));

/** @type {Record<string, any>[]} */
export const talks = readJson('talks.json');

/**
 * The primary index's settings (naming its replicas) and each replica's:
 * talks_date_asc's own fixture, the others sorted by the attribute their name says.
 * @returns {{ settings: Record<string, any>, replicas: { name: string, settings: Record<string, any> }[] }}
 */
export function tedSettings() {
  const settings = readJson('talks_settings.json');
  const dateAsc = readJson('talks_date_asc_settings.json');
  /** @type {string[]} */
  const names = settings.slaves;
  const replicas = names.map((name) => {
    const sorted = name === 'talks_date_asc' ? { ...dateAsc } : { ...settings, customRanking: [`desc(${name.replace(/^talks_/, '').replace(/_desc$/, '')})`] };
    delete sorted.slaves;
    delete sorted.master;
    return { name, settings: sorted };
  });
  return { settings, replicas };
}

/**
 * Talk `i % talks` under objectID `${talk}-${copy}`: an index of n records holds each talk n / 2,356 times.
 * @param {number} i
 * @returns {Record<string, any>}
 */
export function tedRecordAt(i) {
  const talk = talks[i % talks.length];
  return { ...talk, objectID: `${talk.objectID}-${Math.floor(i / talks.length)}` };
}
