// The relevance benchmark's corpora: the four datasets of the workspace
// (/work/shared/datasets, or --datasets DIR), five indexes: TED talks, TED
// speakers, recipes, airports and contacts. Each names the fields every
// library searches (the same for all: what a search box over that data
// would search) and a record's title, which queries are built from.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @typedef {Record<string, unknown> & { objectID: string }} RelevanceRecord
 * @typedef {object} RelevanceCorpus
 * @property {string} name
 * @property {RelevanceRecord[]} records
 * @property {string[]} fields the searchable fields, most important first
 * @property {(r: RelevanceRecord) => string} title the text a user looks a record up by
 */

export const DEFAULT_DATASETS = '/work/shared/datasets';

/**
 * @typedef {{ name: string, file: string, fields: string[], title: (r: Record<string, any>) => string }} CorpusSpec
 * @type {CorpusSpec[]}
 */
const SPECS = [
  { name: 'talks', file: 'tedtalks/talks.json', fields: ['name', 'speakers', 'event_name', 'tags'], title: (r) => r.name },
  { name: 'speakers', file: 'tedtalks/speakers.json', fields: ['name', 'description'], title: (r) => r.name },
  { name: 'recipes', file: 'recipes/recipes.json', fields: ['recipe_name', 'ingredients'], title: (r) => r.recipe_name },
  { name: 'airports', file: 'airports/airports.json', fields: ['name', 'city', 'country', 'iata_code'], title: (r) => r.name },
  {
    name: 'contacts', file: 'contacts/contacts.json', fields: ['firstname', 'lastname', 'company', 'city', 'email'],
    title: (r) => `${r.firstname} ${r.lastname}`,
  },
];

/**
 * The corpora, records given an objectID where the file has none (its place in the file).
 * @param {string} dir the datasets folder
 * @returns {RelevanceCorpus[]}
 */
export function relevanceCorpora(dir = DEFAULT_DATASETS) {
  return SPECS.map((spec) => {
    /** @type {Record<string, unknown>[]} */
    const raw = JSON.parse(readFileSync(join(dir, spec.file), 'utf8'));
    const records = raw.map((r, i) => ({ ...r, objectID: String(r.objectID ?? i) }));
    return { name: spec.name, records, fields: spec.fields, title: spec.title };
  });
}
