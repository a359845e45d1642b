// Search-box settings inferred from records (src/index/search-box-settings.ts):
// 1. text attributes are searchable, in the order records list them, long
//    texts after the short ones;
// 2. links, identifiers, numbers, booleans, geo, nested objects and objectID are not;
// 3. an attribute that is text in fewer than half the records having it is not;
// 4. on the fixtures: each dataset's title first, its long texts last, no link;
// 5. the recipe comes with them.
import { describe, expect, it } from 'vitest';
import { SEARCH_BOX_RECIPE, inferSearchableAttributes, searchBoxSettings } from '../../src/index/search-box-settings.js';
import { readFixture } from '../support/fixtures.js';

const long = 'a sentence of some length that goes on '.repeat(4);

describe('inferred searchable attributes', () => {
  it('text attributes, in the records\' order, long texts last', () => {
    const records = [
      { objectID: '1', title: 'Giver or taker', description: long, speakers: ['Adam Grant'], city: 'Paris' },
      { objectID: '2', title: 'Saturn', description: long, speakers: ['Carolyn Porco'], city: 'Nice', extra: 'late' },
    ];
    expect(inferSearchableAttributes(records)).toEqual(['title', 'speakers', 'city', 'extra', 'description']);
  });

  it('not links, identifiers, numbers, booleans, geo, objects or objectID', () => {
    const records = [{
      objectID: 'a', name: 'Skiathos', url: 'https://example.com/x', web: 'www.example.com', slug: 'sir_ken_robinson', sku: 'ab-12-cd',
      zip: '99515', phone: '907-345-0962', count: 3, open: true, _geoloc: { lat: 1, lng: 2 }, nested: { a: 'text' }, ids: [1, 2],
    }];
    expect(inferSearchableAttributes(records)).toEqual(['name']);
  });

  it('an attribute that is text in fewer than half the records having it is left out', () => {
    const records = [{ code: 'Alpha' }, { code: '123' }, { code: '456' }, { label: 'x y' }, { label: null }];
    expect(inferSearchableAttributes(records)).toEqual(['label']);
  });

  it('on the fixtures: the title first, long texts last, no link', () => {
    const talks = inferSearchableAttributes(readFixture<unknown[]>('talks.json'));
    expect(talks[0]).toBe('name');
    expect(talks.at(-1)).toBe('description');
    expect(talks).toEqual(expect.arrayContaining(['speakers', 'tags', 'event_name']));
    expect(talks).not.toContain('image_url');
    expect(talks).not.toContain('slug');
    const recipes = inferSearchableAttributes(readFixture<unknown[]>('recipes.json'));
    expect(recipes[0]).toBe('recipe_name');
    const longTexts = ['ingredients', 'directions', 'nutrition'];
    expect(recipes.slice(-3).sort()).toEqual(longTexts.sort());
    const contacts = inferSearchableAttributes(readFixture<unknown[]>('contacts.json'));
    expect(contacts.slice(0, 2)).toEqual(['firstname', 'lastname']);
    expect(contacts).not.toContain('web');
    expect(contacts).not.toContain('phone');
    expect(inferSearchableAttributes(readFixture<unknown[]>('airports.json'))).toEqual(['name', 'city', 'country', 'iata_code']);
  });

  it('come with the recipe', () => {
    expect(searchBoxSettings([{ name: 'Skiathos' }])).toEqual({ searchableAttributes: ['name'], ...SEARCH_BOX_RECIPE });
  });
});
