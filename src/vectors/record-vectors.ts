// The `_vectors` attribute of a record: the vectors its writer computed, by
// embedder name. A record keeps `_vectors` as it was written (it survives a
// snapshot and a restart byte for byte, and reaches followers with the
// record); the index reads the vectors from it into its vector spaces.
// `_vectors` is never searched as text, faceted, highlighted, or answered in
// hits unless `retrieveVectors` asks for it.
import { badRequest } from '../util/errors.js';
import { isPlainObject } from '../index/records.js';
import type { EmbedderSettings } from './embedder-settings.js';

/** The reserved attribute holding a record's vectors. */
export const VECTORS = '_vectors';

/** A record's vector for `embedder`, as written (an array of numbers), or undefined when it has none (absent or null). */
export function writtenVector(record: Record<string, unknown>, embedder: string): readonly number[] | undefined {
  const vectors = record[VECTORS];
  if (!isPlainObject(vectors)) return undefined;
  const vector = Object.hasOwn(vectors, embedder) ? vectors[embedder] : undefined;
  return Array.isArray(vector) ? (vector as number[]) : undefined;
}

/** How a record is named in errors: by objectID, else by its place in a batch. */
export type RecordName = string;

/**
 * Refuses a written `_vectors` the index cannot take, naming the record and
 * the embedder: not an object, an embedder the index does not have, a value
 * that is not an array of finite numbers (or null: no vector), a length
 * other than the embedder's dimensions, a zero vector (it has no direction).
 */
export function checkWrittenVectors(value: unknown, embedders: Readonly<Record<string, EmbedderSettings>>, record: RecordName): void {
  if (value === undefined || value === null) return;
  if (!isPlainObject(value)) throw badRequest(`${record}: "_vectors" must be an object of vectors by embedder name`);
  for (const [name, vector] of Object.entries(value)) {
    const embedder = Object.hasOwn(embedders, name) ? embedders[name] : undefined;
    const known = Object.keys(embedders);
    if (!embedder) {
      throw badRequest(`${record}: "_vectors.${name}" names no embedder of this index (${known.length ? `it has ${known.join(', ')}` : 'set the "embedders" setting first'})`);
    }
    if (vector === null) continue;
    checkVector(vector, embedder.dimensions, `${record}: "_vectors.${name}"`);
  }
}

/** Refuses what is not a usable vector of `dimensions` numbers, naming it `what`. */
export function checkVector(vector: unknown, dimensions: number, what: string): asserts vector is number[] {
  if (!Array.isArray(vector)) throw badRequest(`${what} must be an array of ${dimensions} numbers`);
  if (vector.length !== dimensions) throw badRequest(`${what} has ${vector.length} dimensions, the embedder ${dimensions}`);
  let zero = true;
  for (const x of vector) {
    if (typeof x !== 'number' || !Number.isFinite(x)) throw badRequest(`${what} must hold finite numbers only`);
    if (x !== 0) zero = false;
  }
  if (zero) throw badRequest(`${what} is all zeros: a vector needs a direction`);
}

/** Refuses a batch whose records carry vectors the index cannot take (see checkWrittenVectors), before anything is logged. */
export function checkBatchVectors(actions: ReadonlyArray<{ action: string; body?: Record<string, unknown>; objectID?: string }>, embedders: Readonly<Record<string, EmbedderSettings>> | undefined): void {
  for (const action of actions) {
    const body = action.body;
    if (!body || !Object.hasOwn(body, VECTORS)) continue;
    checkWrittenVectors(body[VECTORS], embedders ?? {}, `Record ${JSON.stringify(String(body.objectID ?? action.objectID))}`);
  }
}
