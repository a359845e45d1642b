// Values kept for the keys used most recently: built once while kept, the
// least recently used dropped past a fixed count. For results an app asks
// for again and again (a filter atom's bitmap keystroke after keystroke, the
// route of the same few paths, the projection of the same attribute lists).

export class RecentValues<K, V> {
  /** Most recently used last. */
  private readonly values = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  /** The value kept for `key`, else `build()`'s (kept unless it throws). */
  get(key: K, build: () => V): V {
    let value: V;
    if (this.values.has(key)) {
      value = this.values.get(key)!;
      this.values.delete(key);
    } else {
      value = build();
    }
    this.values.set(key, value);
    if (this.values.size > this.capacity) this.values.delete(this.values.keys().next().value!);
    return value;
  }

  /** Drops every value (an empty map is left alone: clear() allocates a new table even then). */
  clear(): void {
    if (this.values.size > 0) this.values.clear();
  }
}
