// Write pacing: writes take at most about half of the main thread while
// searches are being answered. Writes cost twice: when they are accepted
// (parsed, checked, logged) and when they are applied (a slice of a batch
// at a time); both are charged here. Before each slice, the engine waits as
// long as the write work charged since the last pause if reads arrived
// meanwhile, and not at all otherwise, so an import with nobody searching
// runs at full speed. A large write's acceptance is stepped work (see
// PacedWork): each step is charged, and searches waiting run between steps.
import { yieldTurn } from '../util/turns.js';
import { RetryLater } from '../util/errors.js';
import { countRead } from '../index/idle-work.js';

/**
 * Milliseconds of pause per millisecond of charged write work. More than 1:
 * part of a write's cost is never charged (receiving its body, the garbage
 * it leaves), and searches are to keep at least half of the thread. On the
 * TED talks (large records, 12 sort replicas) 1.5 left searches 33-37% of
 * their throughput during four writers' bursts, 2.5 left them 33-50% (mean
 * 43%) for 10% fewer records written (bench/reads-under-writes.mjs --corpus
 * ted, alternating builds).
 */
const PAUSE_PER_WRITE_MS = 2.5;

/**
 * Records queued (accepted, not applied yet) per extra pause before the next
 * write is accepted: accepting far ahead of applying gains writers nothing
 * (their acknowledgement waits for room in the queue anyway) and spends the
 * thread while searches wait. When four writers start sending at once to an
 * empty queue, twenty batches were parsed and logged in the first second:
 * that second's p99 was 63-143 ms where later seconds held 27-64.
 */
const ADMIT_DEPTH = 5000;

/**
 * Records queued to be applied below which a write's wait for the disk is
 * not worth leaving the thread for (see waitsForDiskHere): applying them
 * takes less than the hops to the thread pool and back. A sequential
 * writer of single records (the one before still queued) took 6-11 ms a
 * write with every fsync on the pool against 3.3-3.9 with it here (nice
 * -20, loaded machine); imports of 1,000-record batches gain the overlap
 * (0.75x the wall time on files, 30k synthetic records, indexing-ab.mjs).
 */
const FEW_QUEUED = 100;

/** Ends a write's turn to be accepted: the next write's turn may come. */
export type EndTurn = () => void;

export class WritePacer {
  private readsSeen = 0;
  private readsAtLastPause = 0;
  /** Milliseconds of write work done since the last pause. */
  private owed = 0;
  private admitted: Promise<void> = Promise.resolve();

  /** Ends the turn of the write being accepted now (the last admitted). */
  private current: EndTurn | undefined;

  /** When the last read was answered (performance.now()). */
  private lastRead = -Infinity;

  /**
   * `queued`: the records accepted and not applied yet (see ADMIT_DEPTH);
   * `maxAdmitWaitMs`: how long a write may wait for its turn to be accepted
   * before it is refused (default: no bound; see `admit`).
   */
  constructor(private readonly queued: () => number = () => 0, private readonly maxAdmitWaitMs = Infinity) {}

  /** A read (search, browse, getObject...) was answered; it holds the thread's idle work back a turn too (see idle-work.ts). */
  noteRead(): void {
    this.readsSeen++;
    this.lastRead = performance.now();
    countRead();
  }

  /**
   * Whether the write being accepted waits for the disk on this thread,
   * keeping its turn until it is durable and queued: while searches
   * arrive (accepting writes no faster than that paces them against the
   * searches: with the turn passed on during the wait, TED's bursts kept
   * 41-47% of the searches' throughput against 43-81%, p99 136-215 ms
   * against 61-149), or while fewer than FEW_QUEUED records are queued
   * (nothing else would use the thread). Otherwise (an import) the wait
   * leaves the thread to applying the writes queued.
   */
  get waitsForDiskHere(): boolean {
    return this.readsArriving || this.queued() < FEW_QUEUED;
  }

  /** Whether searches are arriving (one answered within the last second). */
  get readsArriving(): boolean {
    return performance.now() - this.lastRead < 1000;
  }

  /**
   * Resolves when the next write may be accepted (parsed, checked, logged),
   * with the function that ends its turn: after the write before it has been
   * accepted, and after a pause for the write work owed. Four writers'
   * bodies arriving together are accepted one at a time, a pause apart,
   * instead of parsed and logged side by side in a block that searches
   * waited behind (the first second of a burst held p99s of 200-300 ms);
   * the pause grows with the records already queued. A write whose turn
   * does not come within `maxAdmitWaitMs` (many writers at once while
   * searches arrive) is refused, 503 with Retry-After, before anything of
   * it is read: the caller gets an answer in time and may send it again
   * (its turn still passes in order, and ends at once).
   */
  admit(): Promise<EndTurn> {
    let endTurn!: EndTurn;
    const accepted = new Promise<void>((ended) => { endTurn = ended; });
    const turn = this.admitted.then(() => this.pause(1 + this.queued() / ADMIT_DEPTH)).then(() => { this.current = endTurn; });
    this.admitted = turn.then(() => accepted);
    if (!Number.isFinite(this.maxAdmitWaitMs)) return turn.then(() => endTurn);
    return new Promise((admitted, refused) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        refused(new RetryLater(
          'unavailable', `Too many writes at once: send the write again in a moment (it waited ${this.maxAdmitWaitMs} ms for its turn; nothing was written)`, 1,
        ));
      }, this.maxAdmitWaitMs);
      void turn.then(() => {
        clearTimeout(timer);
        if (late) endTurn();
        else admitted(endTurn);
      });
    });
  }

  /**
   * The write being accepted has its place in the log: the next write's
   * turn may come while this one waits for the storage to make it durable
   * (its own end of turn, called later, changes nothing).
   */
  passTurn(): void {
    this.current?.();
    this.current = undefined;
  }

  /** Write work done: accepting a write (parsing, checking, logging) or applying a slice of one. */
  charge(ms: number): void {
    this.owed += ms;
  }

  /** Write work to be done in steps, charged from now (see PacedWork). */
  work(): PacedWork { return new PacedWork(this); }

  /** Waits before the next piece of write work (`stretch` times the usual pause). */
  async pause(stretch = 1): Promise<void> {
    const owed = this.owed;
    this.owed = 0;
    const contended = this.readsSeen !== this.readsAtLastPause;
    this.readsAtLastPause = this.readsSeen;
    if (contended && owed >= 1) await new Promise((resume) => setTimeout(resume, owed * PAUSE_PER_WRITE_MS * stretch));
  }
}

/**
 * One write's work done in steps (reading a large batch's records): each
 * step's time is charged to the pacer, and searches waiting are answered
 * between steps instead of behind the whole write.
 */
export class PacedWork {
  private since = performance.now();

  constructor(private readonly pacer: WritePacer) {}

  /** Ends a step: charges it, lets searches waiting run, and pauses as the pacer says. */
  async step(): Promise<void> {
    this.charge();
    await yieldTurn();
    await this.pacer.pause();
    this.since = performance.now();
  }

  /** Charges the work done since the last step. */
  charge(): void {
    const now = performance.now();
    this.pacer.charge(now - this.since);
    this.since = now;
  }
}
