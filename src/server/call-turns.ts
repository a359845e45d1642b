// Calls answered a few milliseconds' worth per turn of the event loop.
// Since libuv 1.45 (Node 20), a listening socket accepts one connection per
// turn of the loop (libuv/libuv#3696: level-triggered polling brings the
// next one on the next turn). A turn that answers every call whose request
// arrived — eight searches and a batch or two, tens of milliseconds — lets
// one new connection in: 120 clients connecting at once to a busy server
// waited 2-11 s for their first answers while the connected ones went on
// being served (bench/connection-storm.mjs, bench/reads-under-writes.mjs
// --mixed). Here calls are answered in the order their requests came; while
// connections are being opened (one accepted within ACCEPTING_MS), one call
// per turn, so that each call answered lets one more connection in; else a
// turn answers calls until TURN_BUDGET_MS have passed. Not one call per
// turn always: work that goes on a slice per turn (applying a batch,
// packing a snapshot) would then get as many turns as all the calls
// together.
import { nextTurn } from '../util/turns.js';

/** Milliseconds of calls a turn answers before the next call waits for the next turn. */
const TURN_BUDGET_MS = 8;

/** Milliseconds after a connection is accepted during which more are taken to be waiting: one call per turn. */
const ACCEPTING_MS = 50;

/** The calls waiting for their turn, answered in the order they came, TURN_BUDGET_MS' worth a turn of the event loop. */
export class CallTurns {
  private readonly waiting: Array<() => void> = [];
  /** Whether a turn is scheduled to release the next call waiting. */
  private scheduled = false;
  /** The current turn (counted while calls wait) and when it began releasing. */
  private turn = 0;
  private turnStart = 0;
  private lastConnection = -Infinity;

  /** A connection was accepted (more may be waiting to be: see ACCEPTING_MS). */
  noteConnection(): void {
    this.lastConnection = performance.now();
  }

  /** Answers `call` in its turn: after the calls that came before it. */
  async answer<T>(call: () => Promise<T>): Promise<T> {
    const turn = await this.waitTurn();
    try {
      return await call();
    } finally {
      this.callDone(turn);
    }
  }

  /** Resolves with the turn in which the call may run. */
  private waitTurn(): Promise<number> {
    return new Promise((release) => {
      this.waiting.push(() => release(this.turn));
      this.scheduleNextTurn();
    });
  }

  private scheduleNextTurn(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    nextTurn(() => this.beginTurn());
  }

  private beginTurn(): void {
    this.scheduled = false;
    this.turn++;
    this.turnStart = performance.now();
    this.releaseNext();
  }

  /** Releases the call first in line; the one after it waits for the next turn unless this call is done in time. */
  private releaseNext(): void {
    this.waiting.shift()?.();
    if (this.waiting.length > 0) this.scheduleNextTurn();
  }

  /**
   * A call released in `turn` is answered: the next one runs now if this
   * turn has time left and no connection is being opened, else in the next
   * turn as scheduled.
   */
  private callDone(turn: number): void {
    if (turn !== this.turn || this.waiting.length === 0) return;
    const now = performance.now();
    if (now - this.lastConnection >= ACCEPTING_MS && now - this.turnStart < TURN_BUDGET_MS) this.releaseNext();
  }
}
