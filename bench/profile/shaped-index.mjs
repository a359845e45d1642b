// A Lantern index of one shape of bench/shapes.mjs, for the scripts that
// ask its queries one after another: the records of
// corpus.mjs recordSets (`set`), imported through the batch API, and the
// queries of queries.mjs QUERY_SHAPES (`shape`) cut from them.
import { resolve } from 'node:path';
import { recordSets } from '../corpus.mjs';
import { flatDocument, loadLibraries } from '../peers.mjs';
import { QUERY_SHAPES, shapedQueries } from '../queries.mjs';

/**
 * The records (`records` of them) and the queries' shape that `set` and
 * `shape` name; throws, naming the choices, for a set or a shape it does
 * not know.
 * @param {{ records: string, set: string, shape: string }} options
 */
export function shapeNamed({ records, set, shape }) {
  const makeCorpus = recordSets(Number(records))[set];
  const queryShape = QUERY_SHAPES[/** @type {keyof typeof QUERY_SHAPES} */ (shape)];
  if (!makeCorpus || !queryShape) throw new Error(`--set: one of ${Object.keys(recordSets(0)).join(', ')}; --shape: one of ${Object.keys(QUERY_SHAPES).join(', ')}`);
  return { corpus: makeCorpus(), queryShape };
}

/**
 * The index and `queries` queries (seed 25) of a shape (see shapeNamed).
 * @param {{ records: string, set: string, shape: string, queries: string, dist: string }} options
 */
export async function shapedIndex({ records, set, shape, queries, dist }) {
  const { corpus, queryShape } = shapeNamed({ records, set, shape });
  const asked = shapedQueries(corpus, Number(queries), 25, queryShape);
  const [lantern] = await loadLibraries(['lantern'], resolve(dist));
  const instance = /** @type {import('../peers.mjs').LanternInstance} */ (await lantern.build({ ...corpus, documents: corpus.records.map((r) => flatDocument(r, corpus.peer)) }));
  return { corpus, queries: asked, instance };
}
