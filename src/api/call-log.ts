// The last calls an engine answered, for GET /1/logs: a ring of fixed size
// (the oldest entry is overwritten), entries older than the retention left
// out. In memory only: logs are a diagnostic window, not data, and writing
// every search to the durable log would cost more than the search.
export const LOG_CAPACITY = 1000;
export const LOG_RETENTION_MS = 7 * 24 * 3600 * 1000;

export class CallLog<T extends { time: number }> {
  private readonly ring: T[] = [];
  private next = 0;

  constructor(private readonly capacity = LOG_CAPACITY, private readonly retentionMs = LOG_RETENTION_MS) {}

  record(entry: T): void {
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Entries within the retention, newest first. */
  newestFirst(now = Date.now()): T[] {
    const out: T[] = [];
    for (let i = 1; i <= this.ring.length; i++) {
      const entry = this.ring[(this.next - i + this.capacity) % this.capacity];
      if (now - entry.time > this.retentionMs) break; // older ones are older still
      out.push(entry);
    }
    return out;
  }
}
