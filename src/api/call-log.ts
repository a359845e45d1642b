// The last calls an engine answered, for GET /1/logs: a ring of fixed size
// (the oldest entry is overwritten), entries older than the retention left
// out. In memory only: logs are a diagnostic window, not data, and writing
// every search to the durable log would cost more than the search.
//
// An entry is made after its answer is given, on a later turn of the event
// loop: making it (the start of the answer's JSON, masked) is work the
// answer need not wait for. The entries waiting are made when the log is
// read, and at once past MAX_WAITING: a caller asking in a loop that never
// yields a turn holds one answer waiting, made at its next call while the
// answer is still in the caches: made many calls later, an entry reads a
// cold answer, and every answer waiting is copied by each young collection.
import { nextTurn } from '../util/turns.js';

export const LOG_CAPACITY = 1000;
export const LOG_RETENTION_MS = 7 * 24 * 3600 * 1000;
/** Entries left to make, at most: each holds its call's answer until it is made. */
export const MAX_WAITING = 1;

export class CallLog<T extends { time: number }> {
  private readonly ring: T[] = [];
  private next = 0;
  /** Entries to make, oldest first (see recordLater). */
  private waiting: Array<() => T> = [];

  constructor(private readonly capacity = LOG_CAPACITY, private readonly retentionMs = LOG_RETENTION_MS) {}

  /**
   * Records the entry `make` makes, on a later turn (see the header); until
   * then `make` holds what it reads, which must not change meanwhile.
   */
  recordLater(make: () => T): void {
    if (this.waiting.length === 0) nextTurn(() => this.makeWaiting());
    this.waiting.push(make);
    if (this.waiting.length > MAX_WAITING) this.placeMade(this.waiting.shift() as () => T);
  }

  /** Entries within the retention, newest first. */
  newestFirst(now = Date.now()): T[] {
    this.makeWaiting();
    const out: T[] = [];
    for (let i = 1; i <= this.ring.length; i++) {
      const entry = this.ring[(this.next - i + this.capacity) % this.capacity];
      if (now - entry.time > this.retentionMs) break; // older ones are older still
      out.push(entry);
    }
    return out;
  }

  /** Makes the entries waiting, in the order of their calls. */
  private makeWaiting(): void {
    if (this.waiting.length === 0) return;
    const waiting = this.waiting;
    this.waiting = [];
    for (const make of waiting) this.placeMade(make);
  }

  /**
   * Places the entry `make` makes; none if it throws: on a later turn
   * nothing would catch the error but the host's handler of uncaught ones,
   * and a diagnostic must not take an app down.
   */
  private placeMade(make: () => T): void {
    let entry: T;
    try {
      entry = make();
    } catch {
      return;
    }
    this.place(entry);
  }

  private place(entry: T): void {
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  }
}
