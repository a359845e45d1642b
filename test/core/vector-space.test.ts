// A vector space against the real core: the graph's answers against an exact
// search in float64 of the same vectors, filters applied before the top k is
// cut, deleted and replaced labels never answered, renumbering, snapshots
// that answer as the space did and damaged ones refused, bad vectors refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { VectorSpace, type NearestVectors } from '../../src/core/vector-space.js';
import { concat } from '../../src/util/bytes.js';
import { prng as random } from '../support/random.js';

beforeAll(loadCore);

const pause = async () => {};

/** `count` vectors of `dimensions` around `clusters` random centres (a Gaussian mixture, like embeddings). */
function clustered(count: number, dimensions: number, clusters: number, seed: number): Float32Array[] {
  const next = random(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
  const centres = Array.from({ length: clusters }, () => Float32Array.from({ length: dimensions }, gauss));
  return Array.from({ length: count }, () => {
    const centre = centres[Math.floor(next() * clusters)];
    return Float32Array.from(centre, (c) => c + 0.6 * gauss());
  });
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

/** The exact k nearest labels of `vectors` (label = place; undefined: none), optionally among `allowed` only. */
function exactNearest(vectors: Array<Float32Array | undefined>, query: Float32Array, k: number, allowed?: (label: number) => boolean): number[] {
  const scored: Array<[number, number]> = [];
  vectors.forEach((v, label) => { if (v && (!allowed || allowed(label))) scored.push([cosine(v, query), label]); });
  return scored.sort((a, b) => b[0] - a[0]).slice(0, k).map(([, label]) => label);
}

function recall(found: NearestVectors, truth: number[]): number {
  const wanted = new Set(truth);
  return [...found.labels].filter((l) => wanted.has(l)).length / truth.length;
}

function bitmapOf(labels: number[], words: number): Uint32Array {
  const bitmap = new Uint32Array(words);
  for (const l of labels) bitmap[l >>> 5] |= 1 << (l & 31);
  return bitmap;
}

function linkAll(space: VectorSpace): void {
  while (space.linkSome(50) > 0) { /* links in steps, as a caller between requests does */ }
}

const DIMS = 64;
const COUNT = 5000;
const data = clustered(COUNT, DIMS, 40, 7);
const queries = clustered(100, DIMS, 40, 7).map((v, i) => Float32Array.from(v, (x, j) => x + 0.3 * Math.sin(i * 7 + j)));

describe('VectorSpace', () => {
  let graph: VectorSpace;

  beforeAll(() => {
    graph = new VectorSpace(DIMS, { exactBelow: 0 });
    data.forEach((v, label) => graph.set(label, v));
    linkAll(graph);
  });

  it('finds through the graph at least 95% of the exact top 10, best first with true similarities', () => {
    expect(graph.size).toBe(COUNT);
    expect(graph.pending).toBe(0);
    let total = 0;
    for (const q of queries) {
      const found = graph.nearest(q, 10);
      expect(found.labels).toHaveLength(10);
      total += recall(found, exactNearest(data, q, 10));
      for (let i = 1; i < 10; i++) expect(found.similarities[i]).toBeLessThanOrEqual(found.similarities[i - 1]);
      for (let i = 0; i < 10; i++) expect(found.similarities[i]).toBeCloseTo(cosine(data[found.labels[i]], q), 2);
    }
    expect(total / queries.length).toBeGreaterThanOrEqual(0.95);
  });

  it('answers exactly below exactBelow: the same labels as an exact search', () => {
    const exact = new VectorSpace(DIMS, { exactBelow: 10_000 });
    data.slice(0, 2000).forEach((v, label) => exact.set(label, v));
    linkAll(exact);
    for (const q of queries.slice(0, 20)) {
      const found = exact.nearest(q, 10);
      const truth = exactNearest(data.slice(0, 2000), q, 10);
      expect(found.labels[0]).toBe(truth[0]);
      // int8 codes may only swap neighbours whose similarities differ by less than their error (about 1e-3)
      const tenth = cosine(data[truth[9]], q);
      for (const l of found.labels) expect(cosine(data[l], q)).toBeGreaterThan(tenth - 0.005);
      expect(recall(found, truth)).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('answers a query that is a stored vector with that vector first, similarity about 1', () => {
    for (const label of [0, 17, 4999]) {
      const found = graph.nearest(data[label], 3);
      expect(found.labels[0]).toBe(label);
      expect(found.similarities[0]).toBeGreaterThan(0.999);
    }
  });

  it('collects only allowed labels before cutting the top k, by walk or by scan', () => {
    const words = Math.ceil(COUNT / 32);
    const next = random(3);
    for (const share of [0.5, 0.2, 0.01]) {
      const allowedLabels = data.map((_, l) => l).filter(() => next() < share);
      const allowed = new Set(allowedLabels);
      const bitmap = bitmapOf(allowedLabels, words);
      let total = 0;
      for (const q of queries.slice(0, 30)) {
        const found = graph.nearest(q, 10, bitmap);
        expect(found.labels).toHaveLength(10);
        for (const l of found.labels) expect(allowed.has(l)).toBe(true);
        total += recall(found, exactNearest(data, q, 10, (l) => allowed.has(l)));
      }
      expect(total / 30, `share ${share}`).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('answers k labels when a small allow-list allows k, and fewer when it allows fewer', () => {
    const few = [3, 900, 1234, 2500, 4000, 4100, 4200, 4300, 4400, 4998];
    const found = graph.nearest(queries[0], 10, bitmapOf(few, Math.ceil(COUNT / 32)));
    expect([...found.labels].sort((a, b) => a - b)).toEqual(few);
    expect(graph.nearest(queries[0], 10, bitmapOf([5, 6], 1)).labels.length).toBe(2);
    expect(graph.nearest(queries[0], 10, new Uint32Array(0)).labels.length).toBe(10); // no words: every label
    expect(graph.nearest(queries[0], 10, new Uint32Array(4)).labels.length).toBe(0);
  });

  it('never answers a deleted or replaced label\'s old vector, and finds the new one', () => {
    const space = new VectorSpace(DIMS, { exactBelow: 0 });
    const vectors: Array<Float32Array | undefined> = data.slice(0, 3000);
    vectors.forEach((v, label) => space.set(label, v!));
    linkAll(space);
    const q = queries[1];
    const before = space.nearest(q, 10).labels;
    const gone = [before[0], before[1], before[2]];
    for (const l of gone) { space.delete(l); vectors[l] = undefined; }
    expect(space.has(gone[0])).toBe(false);
    expect(space.size).toBe(2997);
    // the label that was 4th now holds a vector far from the query
    const replaced = before[3];
    vectors[replaced] = Float32Array.from(q, (x) => -x);
    space.set(replaced, vectors[replaced]!);
    expect(space.size).toBe(2997);
    expect(space.tombstones).toBe(4);
    linkAll(space);
    const after = space.nearest(q, 10);
    for (const l of gone) expect([...after.labels]).not.toContain(l);
    expect([...after.labels]).not.toContain(replaced);
    expect(recall(after, exactNearest(vectors, q, 10))).toBeGreaterThanOrEqual(0.9);
    expect(space.nearest(vectors[replaced]!, 1).labels[0]).toBe(replaced);
  });

  it('finds pending vectors before linkSome, and after it', () => {
    const space = new VectorSpace(DIMS, { exactBelow: 0 });
    data.slice(0, 2000).forEach((v, label) => space.set(label, v));
    linkAll(space);
    const fresh = clustered(50, DIMS, 5, 99);
    fresh.forEach((v, i) => space.set(2000 + i, v));
    expect(space.pending).toBe(50);
    for (let i = 0; i < 50; i += 7) expect(space.nearest(fresh[i], 1).labels[0]).toBe(2000 + i);
    space.delete(2001);
    expect(space.pending).toBe(49);
    expect(space.linkSome(1000)).toBe(0);
    for (let i = 0; i < 50; i += 7) expect(space.nearest(fresh[i], 1).labels[0]).toBe(2000 + i);
    expect([...space.nearest(fresh[1], 10).labels]).not.toContain(2001);
  });

  it('relabels: answers carry the new labels, and -1 deletes', () => {
    const space = new VectorSpace(DIMS, { exactBelow: 0 });
    data.slice(0, 1000).forEach((v, label) => space.set(label, v));
    linkAll(space);
    // reverse the labels, deleting the even old ones
    const map = Int32Array.from({ length: 1000 }, (_, old) => (old % 2 === 0 ? -1 : 999 - old));
    space.relabel(map);
    expect(space.size).toBe(500);
    expect(space.has(998)).toBe(true); // old 1
    expect(space.has(999)).toBe(false); // old 0, deleted
    const found = space.nearest(data[1], 5);
    expect(found.labels[0]).toBe(998);
    for (const l of found.labels) expect(map.includes(l)).toBe(true);
    space.set(999, data[0]);
    expect(space.nearest(data[0], 1).labels[0]).toBe(999);
  });

  it('round-trips a snapshot, pending vectors and tombstones with it: the same answers, and links on', async () => {
    const space = new VectorSpace(DIMS, { exactBelow: 0 });
    data.slice(0, 3000).forEach((v, label) => space.set(label, v));
    space.linkSome(1e9);
    data.slice(3000, 3500).forEach((v, i) => space.set(3000 + i, v));
    space.delete(10);
    space.delete(3001);
    const parts = await space.exportSnapshot(pause);
    const copy = await VectorSpace.importSnapshot(parts, pause);
    expect(copy.dimensions).toBe(DIMS);
    expect(copy.size).toBe(space.size);
    expect(space.pending).toBe(499);
    expect(copy.pending).toBe(499);
    expect(copy.has(10)).toBe(false);
    for (const q of queries.slice(0, 30)) {
      const a = space.nearest(q, 10);
      const b = copy.nearest(q, 10);
      expect(b.labels).toEqual(a.labels);
      expect(b.similarities).toEqual(a.similarities);
    }
    // both link the pending vectors the same way (the level generator's state came along)
    space.linkSome(1e9);
    copy.linkSome(1e9);
    for (const q of queries.slice(30, 40)) expect(copy.nearest(q, 10).labels).toEqual(space.nearest(q, 10).labels);
    expect(concat(await copy.exportSnapshot(pause)).length).toBe(concat(await space.exportSnapshot(pause)).length);
    const empty = await VectorSpace.importSnapshot(await new VectorSpace(10).exportSnapshot(pause), pause);
    expect([empty.dimensions, empty.size, empty.pending]).toEqual([10, 0, 0]);
    empty.set(3, Float32Array.from({ length: 10 }, (_, i) => i + 1));
    expect(empty.nearest(Float32Array.from({ length: 10 }, (_, i) => i), 5).labels).toEqual(Int32Array.of(3));
  });

  it('refuses a truncated, flipped or foreign snapshot', async () => {
    const space = new VectorSpace(16, { links: 4 });
    clustered(300, 16, 4, 5).forEach((v, label) => space.set(label, v));
    space.linkSome(1e9);
    const whole = concat(await space.exportSnapshot(pause));
    const refused = (bytes: Uint8Array) => expect(VectorSpace.importSnapshot([bytes], pause)).rejects.toThrow(/damaged|truncated/);
    await refused(whole.subarray(0, whole.length - 1));
    await refused(whole.subarray(0, whole.length >> 1));
    await refused(whole.subarray(0, 20));
    await refused(concat([whole, new Uint8Array(4)]));
    for (const at of [0, 8, 40, 200, whole.length >> 1, whole.length - 30, whole.length - 2]) {
      const flipped = whole.slice();
      flipped[at] ^= 0x10;
      await refused(flipped);
    }
    await refused(new TextEncoder().encode('not a snapshot at all'));
    await expect(VectorSpace.importSnapshot([whole.subarray(0, 100), whole.subarray(100)], pause)).resolves.toBeInstanceOf(VectorSpace);
  });

  it('keeps long vectors in small chunks: a small space stays small, and chunks end where they should', async () => {
    const long = clustered(600, 3000, 6, 11);
    const space = new VectorSpace(3000, { exactBelow: 0 });
    space.set(0, long[0]);
    expect(space.memoryBytes).toBeLessThan(2 << 20); // 1,024 records of 3,000 bytes would be 3 MB
    long.forEach((v, label) => space.set(label, v));
    space.linkSome(1e9);
    const copy = await VectorSpace.importSnapshot(await space.exportSnapshot(pause), pause);
    for (const label of [0, 255, 256, 511, 512, 599]) {
      expect(space.nearest(long[label], 1).labels[0]).toBe(label);
      expect(copy.nearest(long[label], 3)).toEqual(space.nearest(long[label], 3));
    }
  });

  it('calibrates: a graph on clustered vectors keeps its beam; on vectors without structure it widens it, then scans exactly', () => {
    const structured = new VectorSpace(DIMS, { exactBelow: 1000 });
    data.forEach((v, i) => structured.set(i, v));
    linkAll(structured);
    expect(structured.calibrate(data.slice(0, 5))).toBe(true);
    expect(structured.searchShape).toEqual({ efSearch: 128, exact: false });

    // uniform random vectors in many dimensions: nearest neighbours barely nearer than the rest, where no graph helps
    const next = random(11);
    const uniform = Array.from({ length: 4000 }, () => Float32Array.from({ length: 256 }, () => next() * 2 - 1));
    const space = new VectorSpace(256, { exactBelow: 1000, efSearch: 16, links: 4, efConstruction: 16 });
    uniform.forEach((v, i) => space.set(i, v));
    linkAll(space);
    const probes = Array.from({ length: 20 }, () => Float32Array.from({ length: 256 }, () => next() * 2 - 1));
    const recallNow = () => probes.reduce((sum, q) => sum + recall(space.nearest(q, 10), exactNearest(uniform, q, 10)), 0) / probes.length;
    const before = recallNow();
    let rounds = 0;
    while (!space.calibrate(uniform.slice(rounds * 5, rounds * 5 + 5))) rounds++;
    expect(rounds).toBeLessThan(10);
    // widened, or scanning exactly (which one depends on what each took on this machine)
    const shape = space.searchShape;
    expect(shape.exact || shape.efSearch > 16).toBe(true);
    expect(recallNow()).toBeGreaterThan(Math.max(0.85, before));
  });

  it('refuses a wrong length, a non-finite component and a zero vector, keeping what it had', () => {
    const space = new VectorSpace(4);
    space.set(0, [1, 0, 0, 0]);
    expect(() => space.set(1, [1, 2, 3])).toThrow(/3 components; the space's vectors have 4/);
    expect(() => space.set(1, [1, NaN, 0, 0])).toThrow(/not a finite number/);
    expect(() => space.set(1, [1, Infinity, 0, 0])).toThrow(/not a finite number/);
    expect(() => space.set(1, [1e39, 0, 0, 0])).toThrow(/not a finite number/);
    expect(() => space.set(0, [0, 0, 0, 0])).toThrow(/all zeros/);
    expect(() => space.set(-1, [1, 0, 0, 0])).toThrow(RangeError);
    expect(() => space.nearest([0, 0, 0, 0], 1)).toThrow(/query vector is all zeros/);
    expect(() => space.nearest([1, 0], 1)).toThrow(/2 components/);
    expect(() => new VectorSpace(0)).toThrow(RangeError);
    expect(() => new VectorSpace(4, { links: 1 })).toThrow(/links must be an integer from 2/);
    expect(new VectorSpace(4, { links: undefined, efSearch: undefined }).size).toBe(0);
    expect(space.size).toBe(1);
    expect(space.nearest([2, 0.1, 0, 0], 5)).toEqual({ labels: Int32Array.of(0), similarities: expect.any(Float32Array) });
    expect(space.nearest([-1, 0, 0, 0], 1).similarities[0]).toBeCloseTo(-1, 3);
  });
});
