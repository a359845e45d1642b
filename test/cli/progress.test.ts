// The import's progress line: drawn on a terminal only, with records, rate,
// share of the file read and time left; a newline once done.
import { describe, expect, it } from 'vitest';
import { clock, Progress } from '../../src/cli/progress.js';

function terminal(isTTY: boolean) {
  const written: string[] = [];
  return { written, out: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream };
}

describe('the progress line', () => {
  it('on a terminal: records, rate, how much of the file is read and the time left', async () => {
    const { written, out } = terminal(true);
    let read = 0;
    const progress = new Progress({ totalBytes: 40e6, bytesRead: () => read }, out);
    await new Promise((resolve) => setTimeout(resolve, 250));
    read = 10e6;
    progress.update(25_000);
    expect(written).toHaveLength(1);
    // eslint-disable-next-line no-control-regex -- the line ends with the terminal's erase-to-end escape
    expect(written[0]).toMatch(/^\r25,000 records {2}[\d,]+\/s {2}25% of 40 MB {2}0:0\d left\x1b\[K$/);
    // redrawn at most five times a second
    progress.update(26_000);
    expect(written).toHaveLength(1);
    progress.done();
    expect(written.at(-1)).toBe('\n');
  });

  it('nothing when the output is not a terminal (a log, a pipe)', () => {
    const { written, out } = terminal(false);
    const progress = new Progress({ totalBytes: 100, bytesRead: () => 50 }, out);
    progress.update(10);
    progress.done();
    expect(written).toEqual([]);
  });

  it('times read as a clock', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(75)).toBe('1:15');
    expect(clock(3700)).toBe('1:01:40');
  });
});
