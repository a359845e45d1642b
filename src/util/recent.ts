// Values kept for the keys used most recently: built once while kept, the
// least recently used dropped past a fixed count. For results an app asks
// for again and again (a filter atom's bitmap keystroke after keystroke, the
// route of the same few paths, the projection of the same attribute lists).

export class RecentValues<K, V> {
  /** Most recently used last. */
  private readonly values = new Map<K, V>();
  /** The key used last, while it is kept (the map's last). */
  private newest: K | undefined;

  constructor(private readonly capacity: number) {}

  /** The value kept for `key`, else `build()`'s (kept unless it throws). */
  get(key: K, build: () => V): V {
    return this.values.has(key) ? this.find(key)! : this.set(key, build());
  }

  /** The value kept for `key` (now the most recently used), or undefined. */
  find(key: K): V | undefined {
    // the most recent key stays where it is: moving it (a delete and a set) left a hole in the
    // map's table at each read, and a table full of holes is copied (an app's one route, read per call)
    if (key === this.newest) return this.values.get(key);
    if (!this.values.has(key)) return undefined;
    const value = this.values.get(key)!;
    this.values.delete(key);
    this.values.set(key, value);
    this.newest = key;
    return value;
  }

  /** Keeps `value` for `key` as the most recently used; returns it. */
  set(key: K, value: V): V {
    this.values.delete(key);
    this.values.set(key, value);
    this.newest = key;
    if (this.values.size > this.capacity) this.delete(this.values.keys().next().value!);
    return value;
  }

  /** Forgets the value kept for `key` (one that turned out wrong: a failed request's). */
  delete(key: K): void {
    this.values.delete(key);
    if (key === this.newest) this.newest = undefined;
  }

  /** The keys kept, most recently used first. */
  newestFirst(): K[] {
    return [...this.values.keys()].reverse();
  }

  /** Drops every value (an empty map is left alone: clear() allocates a new table even then). */
  clear(): void {
    if (this.values.size > 0) this.values.clear();
    this.newest = undefined;
  }
}
