// The call log's ring: entries made on a later turn of the event loop (the
// answer does not wait for its entry), all of them before the log is read,
// and at once past MAX_WAITING, always in the order of their calls.
import { describe, expect, it } from 'vitest';
import { CallLog, MAX_WAITING } from '../../src/api/call-log.js';
import { yieldTurn } from '../../src/util/turns.js';

interface Entry { time: number; name: string }

/** A log, and entries made through it that count how many were made. */
function counted(capacity = 1000) {
  const log = new CallLog<Entry>(capacity);
  let made = 0;
  const later = (name: string) => log.recordLater(() => { made++; return { time: Date.now(), name }; });
  return { log, later, made: () => made };
}

const names = (log: CallLog<Entry>) => log.newestFirst().map((e) => e.name);

describe('CallLog', () => {
  it('makes an entry on a later turn, not in the call', async () => {
    const { later, made } = counted();
    later('a');
    expect(made()).toBe(0);
    await yieldTurn();
    expect(made()).toBe(1);
  });

  it('makes the entries waiting when it is read, in the same turn', () => {
    const { log, later, made } = counted();
    later('a');
    later('b');
    expect(names(log)).toEqual(['b', 'a']);
    expect(made()).toBe(2);
  });

  it(`holds no more than ${MAX_WAITING} entries waiting: past that the oldest is made at once`, () => {
    const { log, later, made } = counted(2 * MAX_WAITING);
    for (let i = 0; i < MAX_WAITING; i++) later(String(i));
    expect(made()).toBe(0);
    later('last');
    expect(made()).toBe(1);
    expect(names(log)).toEqual(['last', ...Array.from({ length: MAX_WAITING }, (_, i) => String(MAX_WAITING - 1 - i))]);
  });

  it('keeps the order of calls made in one turn, each entry made as the next call comes, all when read', async () => {
    const { log, later, made } = counted();
    for (const name of ['a', 'b', 'c', 'd', 'e']) later(name);
    expect(made()).toBe(5 - MAX_WAITING);
    expect(names(log)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(made()).toBe(5);
    await yieldTurn(); // the turn's own making finds nothing left to make
    expect(made()).toBe(5);
    expect(names(log)).toEqual(['e', 'd', 'c', 'b', 'a']);
  });

  it('leaves out an entry whose making throws, on a later turn or when read, and keeps the others', async () => {
    const { log, later } = counted();
    later('a');
    log.recordLater(() => { throw new Error('unmakeable'); });
    later('b');
    await yieldTurn();
    log.recordLater(() => { throw new Error('unmakeable'); });
    later('c');
    expect(names(log)).toEqual(['c', 'b', 'a']);
  });

  it('overwrites its oldest entries past its capacity, made on a turn or when read', async () => {
    const { log, later } = counted(3);
    for (const name of ['a', 'b', 'c', 'd']) later(name);
    await yieldTurn();
    later('e');
    expect(names(log)).toEqual(['e', 'd', 'c']);
  });
});
