// RecentValues: values kept for the keys used most recently, the least
// recently used dropped past the capacity. Reading the newest key again
// (an app's one route, call after call) leaves the order as it is.
import { describe, expect, it } from 'vitest';
import { RecentValues } from '../../src/util/recent.js';

describe('RecentValues', () => {
  it('drops the least recently used past its capacity, reads counting as uses', () => {
    const recent = new RecentValues<string, number>(3);
    for (const key of ['a', 'b', 'c']) recent.set(key, key.charCodeAt(0));
    expect(recent.find('a')).toBe(97);
    expect(recent.find('a')).toBe(97); // the newest read again
    recent.set('d', 100);
    expect(recent.newestFirst()).toEqual(['d', 'a', 'c']);
    expect(recent.find('b')).toBeUndefined();
  });

  it('a key set after the newest one read becomes the newest: reading the older one again moves it', () => {
    const recent = new RecentValues<string, number>(2);
    recent.set('a', 1);
    recent.find('a');
    recent.set('b', 2);
    recent.find('a');
    expect(recent.newestFirst()).toEqual(['a', 'b']);
    recent.set('c', 3);
    expect(recent.newestFirst()).toEqual(['c', 'a']);
  });

  it('builds a value once while it is kept, and again once it was dropped or deleted', () => {
    const recent = new RecentValues<string, string | undefined>(2);
    let built = 0;
    const build = () => { built++; return undefined; }; // undefined is a value like any other
    recent.get('x', build);
    recent.get('x', build);
    expect(built).toBe(1);
    recent.delete('x');
    recent.get('x', build);
    expect(built).toBe(2);
    recent.clear();
    expect(recent.find('x')).toBeUndefined();
    expect(recent.newestFirst()).toEqual([]);
  });

  it('keeps nothing with no capacity', () => {
    const recent = new RecentValues<string, number>(0);
    expect(recent.get('a', () => 1)).toBe(1);
    expect(recent.find('a')).toBeUndefined();
    expect(recent.newestFirst()).toEqual([]);
  });
});
