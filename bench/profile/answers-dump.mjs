// Writes the answers of a shape's queries, as JSON lines, for comparing two
// builds byte for byte (diff or a hash of the files): each default answer
// (10 hits, highlighted; processingTimeMS left out, as it varies), each
// objectID-only answer of the client's search, then the call log's entries
// of them (timestamps, times, request ids and checksums left out).
//
//   node --max-old-space-size=4096 bench/profile/answers-dump.mjs --dist DIST --out FILE [--set zipf2] [--shape typed2] [--records 100000] [--queries 400]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { TOP } from '../peers.mjs';
import { shapedIndex } from './shaped-index.mjs';

const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'zipf2' },
    shape: { type: 'string', default: 'typed2' },
    records: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '400' },
    dist: { type: 'string', default: 'dist' },
    out: { type: 'string' },
  },
});
if (!values.out) throw new Error('--out FILE');
const { queries, instance } = await shapedIndex(values);

const VARYING = ['processingTimeMS', 'processing_time_ms', 'timestamp', 'cid', 'sha1'];
/** @type {(value: unknown) => string} JSON, without the members that vary from run to run (in the log's texts of answers too) */
const stable = (value) => JSON.stringify(value, (key, v) => (VARYING.includes(key) ? undefined : v)).replace(/(processingTimeMS\\*":)\d+/g, '$1_');
const lines = [];
for (const [i, { query }] of queries.entries()) {
  const response = await instance.answer({ query, hitsPerPage: TOP });
  lines.push(stable(response.body));
  lines.push(stable((await instance.search(query)).ids));
  // the log holds 1000 entries: read each 400 calls
  if (i % 200 === 199 || i === queries.length - 1) {
    const logs = await instance.engine.request({ method: 'GET', path: '/1/logs', query: { length: String(2 * ((i % 200) + 1)) } });
    lines.push(stable(logs.body));
  }
}
writeFileSync(values.out, `${lines.join('\n')}\n`);
console.log(`${queries.length} queries of ${values.set} ${values.shape}: ${lines.length} lines written to ${values.out}`);
await instance.close();
