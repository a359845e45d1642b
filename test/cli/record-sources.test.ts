// The records of a file as `lantern import` reads them: each with its
// position, the line it starts on and its text as the file holds it; the
// ones that cannot be read counted among the others.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRecords, SourceError, type RecordFormat, type SourcedEntry } from '../../src/cli/record-sources.js';

const dir = mkdtempSync(join(tmpdir(), 'lantern-sources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
async function read(text: string, format: RecordFormat, types = {}): Promise<SourcedEntry[]> {
  const path = join(dir, `f${files++}`);
  writeFileSync(path, text);
  const entries: SourcedEntry[] = [];
  for await (const entry of openRecords(path, format, types).records) entries.push(entry);
  return entries;
}

describe('CSV', () => {
  it('a quoted field spanning lines: each record is named by the line it starts on, the rows after it too', async () => {
    const csv = 'objectID,name,n\np1,"two\nlines",1\n\np2,"three\nline\nfield",2\np3,plain,3\n';
    const entries = await read(csv, 'csv');
    expect(entries.map(({ position, line }) => [position, line])).toEqual([[1, 2], [2, 5], [3, 8]]);
    expect(entries[1]).toMatchObject({ record: { objectID: 'p2', name: 'three\nline\nfield', n: 2 }, text: 'p2,"three\nline\nfield",2' });
  });

  it('rows that cannot be read keep their place: a value not of its type, a row of too many fields, a quote never closed', async () => {
    const csv = 'objectID,name,n\np1,"a\nb",x\np2,too,many,2\np3,"c\nd",3\np4,"never closed,4\np5,e,5\n';
    const entries = await read(csv, 'csv', { n: 'number' });
    expect(entries).toEqual([
      { problem: 'column "n": "x" is not a number', position: 1, line: 2, text: 'p1,"a\nb",x' },
      { problem: expect.stringMatching(/^Invalid Record Length: columns length is 3, got 4 on line 4/), position: 2, line: 4, text: 'p2,too,many,2' },
      { record: { objectID: 'p3', name: 'c\nd', n: 3 }, position: 3, line: 5, text: 'p3,"c\nd",3' },
      // the quote runs to the end of the file: one record, everything after it its text
      { problem: expect.stringMatching(/^Quote Not Closed/), position: 4, line: 7, text: 'p4,"never closed,4\np5,e,5' },
    ]);
  });
});

describe('NDJSON', () => {
  it('a line that is not JSON is a record that cannot be read, counted; blank lines are not records', async () => {
    const entries = await read('{"a":1}\n\n{oops\n{"a":3}\n', 'ndjson');
    expect(entries).toEqual([
      { record: { a: 1 }, position: 1, line: 1, text: '{"a":1}' },
      { problem: expect.stringMatching(/^not JSON: /), position: 2, line: 3, text: '{oops' },
      { record: { a: 3 }, position: 3, line: 4, text: '{"a":3}' },
    ]);
  });
});

describe('a JSON array', () => {
  it('each element comes with its text as the file holds it (a number too large for a double stays as written)', async () => {
    const json = '[\n  {"objectID": "1", "n": 1e309, "t": "é \\"q\\" ], {"},\n  42 , "str, ]", [1,[2]],\n {"x":-1.5e3}, true, null\n]\n';
    const entries = await read(json, 'json');
    expect(entries.map((e) => 'text' in e && e.text)).toEqual([
      '{"objectID": "1", "n": 1e309, "t": "é \\"q\\" ], {"}', '42', '"str, ]"', '[1,[2]]', '{"x":-1.5e3}', 'true', 'null',
    ]);
    expect(entries[0]).toMatchObject({ record: { objectID: '1', n: Infinity, t: 'é "q" ], {' }, position: 1 });
  });

  it('a file cut short: the records before the break, then an error naming where', async () => {
    const path = join(dir, 'cut.json');
    writeFileSync(path, '[{"a":1},{"b":2},{"c":');
    const entries: SourcedEntry[] = [];
    const reading = (async () => { for await (const entry of openRecords(path, 'json').records) entries.push(entry); })();
    await expect(reading).rejects.toThrow(SourceError);
    await expect(reading).rejects.toThrow(/^not a JSON array after record 2: /);
    expect(entries.map((e) => e.position)).toEqual([1, 2]);
  });
});
