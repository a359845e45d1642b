// Work left for when the thread is idle: done a slice per turn of the event
// loop once a round of `quietMs` has passed without a write (a pause of one
// to two rounds, a third if reads came meanwhile), so that an import keeps
// its turns for indexing and the work takes the time between imports. A
// write arriving while slices run sends the work back to waiting. Reads (a
// search, a browse: calls that read an index) hold it back too, but only a
// round: a slice runs on a turn with no read since the last one, or else a
// round later whatever came meanwhile, so that back-to-back searches do not
// each follow a slice (a slice evicts the caches an answer reads) and
// steady traffic still lets the work finish. Writes and reads are counted
// for the whole thread: the work of an index no one writes waits for an
// import into another too. One slice runs a turn, whatever work it is of,
// and the work that falls due in a turn that had one takes the next turns
// first come first: the packing, warming and rank readying of every index
// fall due together after an import, and run back to back they held the
// thread for the sum of their slices (~250 ms on the 135k cities) before a
// search that came meanwhile was read.
import { nextTurn } from '../util/turns.js';

/** Writes noted in this thread so far. */
let writes = 0;
/** Reads noted in this thread so far. */
let reads = 0;
/** Whether a slice of idle work ran in this turn of the event loop: the next one waits for another turn. */
let sliceRanThisTurn = false;

/**
 * The work whose slice fell due in a turn that had one, first come first:
 * the next turn is theirs before any timer's. Set again for a turn later,
 * the packing of a large import (a slice every turn for a second) took
 * every turn before the rank readying's came.
 */
const waitingForTurn: Array<() => void> = [];

/** Notes that a slice ran in this turn, as it ends: the next turn begins on an immediate. */
function noteSlice(): void {
  sliceRanThisTurn = true;
  nextTurn(beginTurn);
}

/** A later turn (after the poll for I/O): the work waiting for one runs, until one of them takes a slice. */
function beginTurn(): void {
  sliceRanThisTurn = false;
  while (!sliceRanThisTurn && waitingForTurn.length > 0) waitingForTurn.shift()!();
}

/** Counts a write that left no work (an index packing as it goes): the work of others waits for it all the same. */
export function countWrite(): void {
  writes++;
}

/** Counts a call that reads an index: the next slice of idle work waits for a turn without one, a round at most. */
export function countRead(): void {
  reads++;
}

/** The reads counted so far in this thread (what the router's calls told idle work). */
export function readsCounted(): number {
  return reads;
}

/** A timer that does not keep the process alive (Node's have `unref`; a browser's are numbers). */
function unrefed(timer: ReturnType<typeof setTimeout>): ReturnType<typeof setTimeout> {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

export class IdleWork {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The writes counted when the timer last ran. */
  private writesSeen = -1;
  /** The reads counted when the timer last ran. */
  private readsSeen = 0;
  /** Whether the timer running now was set for a round's wait on reads: then a slice runs whatever came. */
  private waitedOnReads = false;

  /** This work's place among those waiting for a turn (see waitingForTurn). */
  private readonly takeTurn = (): void => this.run();

  /** `step` does a slice of the work and says whether any is left. */
  constructor(private readonly step: () => boolean, private readonly quietMs: number) {}

  /** A write came that left work: it is done once a round of `quietMs` passes without another. */
  noteWrite(): void {
    countWrite();
    this.schedule();
  }

  /** Work came without a write (a search made it possible): it is done once a round of `quietMs` passes without a write. */
  schedule(): void {
    if (!this.waitsForTurn()) this.timer ??= this.after(this.quietMs);
  }

  /** No work is left (or none is wanted any more): nothing waits. */
  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waitsForTurn()) waitingForTurn.splice(waitingForTurn.indexOf(this.takeTurn), 1);
  }

  private waitsForTurn(): boolean {
    return waitingForTurn.includes(this.takeTurn);
  }

  /**
   * Another slice, or another wait when a write (or, since the last slice,
   * a read) came meanwhile. The timer is set again rather than once per
   * write: an import writes thousands of times a second, and this runs
   * every `quietMs`.
   */
  private run(): void {
    this.timer = undefined;
    if (sliceRanThisTurn) {
      waitingForTurn.push(this.takeTurn);
      return;
    }
    const written = writes !== this.writesSeen;
    const read = reads !== this.readsSeen && !this.waitedOnReads;
    this.writesSeen = writes;
    this.readsSeen = reads;
    this.waitedOnReads = !written && read;
    if (written || read) this.timer = this.after(this.quietMs);
    else {
      const more = this.step();
      noteSlice();
      if (more) this.timer = this.after(0);
    }
  }

  private after(ms: number): ReturnType<typeof setTimeout> {
    return unrefed(setTimeout(() => this.run(), ms));
  }
}
