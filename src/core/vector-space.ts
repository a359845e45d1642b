// A vector space: nearest-neighbour search by cosine similarity over
// vectors of one dimension (one space per index and embedder), in a core
// instance of its own (assembly/vectors/), so it outlives the text core
// being rebuilt and its memory is freed with it. Vectors are stored as int8
// codes; a graph (HNSW) finds the nearest, linked a few at a time by
// `linkSome` while the vectors not linked yet are scanned exactly.
import { instantiateCore, type CoreExports, type CoreInstance } from './wasm.js';
import { exportInSteps, importInSteps } from './snapshot-steps.js';

export interface NearestVectors { labels: Int32Array; similarities: Float32Array } // best first, at most k

export interface VectorSpaceOptions {
  /** graph links per node (twice as many on the graph's bottom level) */
  links?: number;
  efConstruction?: number;
  efSearch?: number;
  /** exact scan below this many vectors */
  exactBelow?: number;
}

/** Defaults measured by bench/vectors.mjs (see docs/DESIGN.md): recall@10 ≥ 0.95 at 100k × 384 within 0.35× float32's bytes. */
export const VECTOR_DEFAULTS: Required<VectorSpaceOptions> = { links: 12, efConstruction: 128, efSearch: 128, exactBelow: 3072 };

/** Vectors linked per call into the core while `linkSome` has time left: one (0.01-0.4 ms; a call costs far less), so a budget is overrun by one link at most. */
const LINK_BATCH = 1;

/** An exactBelow no space reaches: always an exact scan. */
const EXACT_ALWAYS = 2 ** 31 - 1;
/** The share of the exact top k a calibrated graph finds on its samples (see calibrate). */
const CALIBRATED_RECALL = 0.9;
/** An exact scan this many times the graph's time at most is worth its exactness (see calibrate). */
const EXACT_IF_WITHIN = 2;
/** The widest beam calibrate gives a graph before it searches exactly. */
const MAX_EF_SEARCH = 1024;

/** Labels are dense record ids; the core maps each below the largest to its node (4 bytes a label). */
const MAX_LABEL = 2 ** 27 - 1;

/** Why the core could not code a vector (assembly/vectors/codes.ts). */
const CODE_NOT_FINITE = 1;

/** Set by importSnapshot around the constructor: the instance the snapshot filled. */
let adopting: CoreInstance | undefined;

export class VectorSpace {
  readonly dimensions: number;
  private readonly instance: CoreInstance;
  private readonly core: CoreExports;
  private efSearch: number;
  private exactBelow: number;

  constructor(dimensions: number, options: VectorSpaceOptions = {}) {
    // an option given as undefined takes its default too
    const settings = Object.fromEntries(
      Object.entries(VECTOR_DEFAULTS).map(([name, value]) => [name, options[name as keyof VectorSpaceOptions] ?? value]),
    ) as Required<VectorSpaceOptions>;
    checkCount('dimensions', dimensions, 1, 1 << 16);
    checkCount('links', settings.links, 2, 256);
    checkCount('efConstruction', settings.efConstruction, 1, 1 << 16);
    checkCount('efSearch', settings.efSearch, 1, 1 << 16);
    checkCount('exactBelow', settings.exactBelow, 0, 2 ** 31 - 1);
    this.instance = adopting ?? instantiateCore();
    this.core = this.instance.core;
    if (!adopting && this.core.vectorConfigure(dimensions, settings.links, settings.efConstruction) !== 1) {
      throw new Error('vector space: the core refused its shape');
    }
    this.dimensions = dimensions;
    this.efSearch = settings.efSearch;
    this.exactBelow = settings.exactBelow;
  }

  /** Live vectors. */
  get size(): number { return this.core.vectorSize(); }

  /** Vectors stored but not yet linked into the graph (searched exactly meanwhile). */
  get pending(): number { return this.core.vectorPending(); }

  /**
   * Deleted and replaced vectors still in the graph: they route searches and
   * are never answered, and keep their bytes. Nothing compacts them: the
   * owner builds a fresh space from its records when they outnumber the live
   * ones (see docs/DESIGN.md).
   */
  get tombstones(): number { return this.core.vectorTombstones(); }

  /** Stores or replaces `label`'s vector: searchable at once (exact scan of the pending ones), linked into the graph by linkSome. Throws on a wrong length or a non-finite component or a zero vector. */
  set(label: number, vector: ArrayLike<number>): void {
    checkCount('label', label, 0, MAX_LABEL);
    this.writeVector(vector, `the vector of label ${label}`, 0);
    const why = this.core.vectorSet(label);
    if (why !== 0) throw new TypeError(uncodable(`the vector of label ${label}`, why));
  }

  delete(label: number): void {
    if (isLabel(label)) this.core.vectorDelete(label);
  }

  has(label: number): boolean {
    return isLabel(label) && this.core.vectorHas(label) === 1;
  }

  /** Gives `from`'s vector to label `to`, as it is linked (a record written again with the same vector); false when `from` has none. */
  move(from: number, to: number): boolean {
    return isLabel(from) && isLabel(to) && this.core.vectorMove(from, to) === 1;
  }

  /** After records are renumbered: newLabels[old] is the label's new value (-1: deleted). */
  relabel(newLabels: Int32Array): void {
    const ptr = this.core.scratch(newLabels.length * 4 + 4);
    new Int32Array(this.core.memory.buffer, ptr, newLabels.length).set(newLabels);
    this.core.vectorRelabel(newLabels.length);
  }

  /** Links pending vectors into the graph for about `budgetMs` of work; returns how many are still pending. */
  linkSome(budgetMs: number): number {
    const deadline = performance.now() + budgetMs;
    let pending = this.core.vectorPending();
    while (pending > 0 && performance.now() < deadline) pending = this.core.vectorLinkSome(LINK_BATCH);
    return pending;
  }

  /** The k nearest live labels by cosine similarity, best first; `allowed`: only labels whose bit is set. */
  nearest(query: ArrayLike<number>, k: number, allowed?: Uint32Array): NearestVectors {
    return this.search(query, k, allowed, this.exactBelow);
  }

  /**
   * One round of checking the graph against exact scans of the codes, on
   * `samples` (vectors like the data's: the owner passes some of its own).
   * While the graph finds fewer than CALIBRATED_RECALL of the exact top k,
   * its beam is widened (efSearch doubled, up to MAX_EF_SEARCH), unless an
   * exact scan took no more than EXACT_IF_WITHIN times the graph's time:
   * the space then scans exactly from then on (vectors without structure,
   * as uniform random ones, where a graph finds little). Returns whether the
   * space is calibrated (false: another round is due).
   */
  calibrate(samples: ArrayLike<number>[], k = 10): boolean {
    if (samples.length === 0 || this.size <= this.exactBelow) return true;
    let found = 0;
    let wanted = 0;
    let exactMs = 0;
    let graphMs = 0;
    for (const sample of samples) {
      let started = performance.now();
      const exact = new Set(this.search(sample, k, undefined, EXACT_ALWAYS).labels);
      exactMs += performance.now() - started;
      started = performance.now();
      const graph = this.search(sample, k, undefined, this.exactBelow).labels;
      graphMs += performance.now() - started;
      wanted += exact.size;
      for (const label of graph) if (exact.has(label)) found++;
    }
    if (found >= CALIBRATED_RECALL * wanted) return true;
    if (this.efSearch < MAX_EF_SEARCH && exactMs > EXACT_IF_WITHIN * graphMs) this.efSearch = Math.min(MAX_EF_SEARCH, this.efSearch * 2);
    else this.exactBelow = EXACT_ALWAYS;
    return this.exactBelow === EXACT_ALWAYS;
  }

  /** How the space searches now (calibrate may have changed it). */
  get searchShape(): { efSearch: number; exact: boolean } {
    return { efSearch: this.efSearch, exact: this.exactBelow === EXACT_ALWAYS };
  }

  private search(query: ArrayLike<number>, k: number, allowed: Uint32Array | undefined, exactBelow: number): NearestVectors {
    checkCount('k', k, 0, 2 ** 31 - 1);
    const words = allowed?.length ?? 0;
    const ptr = this.writeVector(query, 'the query vector', words * 4);
    if (allowed) new Uint32Array(this.core.memory.buffer, ptr + this.dimensions * 4, words).set(allowed);
    const why = this.core.vectorSearch(k, this.efSearch, exactBelow, words);
    if (why !== 0) throw new TypeError(uncodable('the query vector', why));
    const length = this.core.resultsLength() >> 1;
    const pairs = this.core.resultsPtr();
    const labelled = new Int32Array(this.core.memory.buffer, pairs, length * 2);
    const scored = new Float32Array(this.core.memory.buffer, pairs, length * 2);
    const labels = new Int32Array(length);
    const similarities = new Float32Array(length);
    for (let i = 0; i < length; i++) {
      labels[i] = labelled[i * 2];
      similarities[i] = Math.max(-1, Math.min(1, scored[i * 2 + 1]));
    }
    return { labels, similarities };
  }

  /** Bytes of the instance's linear memory. */
  get memoryBytes(): number { return this.core.memory.buffer.byteLength; }

  /** Bytes the vectors themselves take in it: codes, links, the label map. */
  get storedBytes(): number { return this.core.vectorBytes(); }

  /** The space as parts of bytes, exported a step at a time (`pause` between steps, as CoreIndex.exportSnapshot does); nothing writes meanwhile. */
  exportSnapshot(pause: () => Promise<void>): Promise<Uint8Array[]> {
    return exportInSteps(this.instance, () => this.core.vectorExportBegin(), (step) => this.core.vectorExportSome(step), pause);
  }

  /**
   * A space from exportSnapshot's parts (memory copies, no re-linking: pending
   * vectors stay pending); throws on damaged or foreign bytes. `options`: the
   * search's (efSearch, exactBelow); the graph's shape comes with the snapshot.
   */
  static async importSnapshot(parts: Uint8Array[], pause: () => Promise<void>, options: VectorSpaceOptions = {}): Promise<VectorSpace> {
    const instance = instantiateCore();
    const { core } = instance;
    const valid = await importInSteps(instance, parts, (length) => core.vectorImportBegin(length), (step) => core.vectorImportSome(step), pause);
    if (!valid) throw new Error('vector space snapshot: damaged, truncated or not a vector space snapshot');
    adopting = instance;
    try {
      return new VectorSpace(core.vectorDimensions(), { ...options, links: core.vectorLinks(), efConstruction: core.vectorEfConstruction() });
    } finally {
      adopting = undefined;
    }
  }

  /** Writes `vector` (checked for its length) to scratch as f32, with `extraBytes` after it; returns where. */
  private writeVector(vector: ArrayLike<number>, what: string, extraBytes: number): number {
    if (vector.length !== this.dimensions) {
      throw new RangeError(`${what} has ${vector.length} components; the space's vectors have ${this.dimensions}`);
    }
    const ptr = this.core.scratch(this.dimensions * 4 + extraBytes);
    new Float32Array(this.core.memory.buffer, ptr, this.dimensions).set(vector);
    return ptr;
  }
}

function uncodable(what: string, why: number): string {
  return why === CODE_NOT_FINITE
    ? `${what} has a component that is not a finite number (as float32)`
    : `${what} is all zeros: it has no direction to compare`;
}

function isLabel(label: number): boolean { return Number.isInteger(label) && label >= 0 && label <= MAX_LABEL; }

function checkCount(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`vector space: ${name} must be an integer from ${min} to ${max}, not ${value}`);
}
