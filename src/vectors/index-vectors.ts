// The vectors of one index: a vector space per embedder (the core's nearest
// neighbour index, over record ids), fed from the records as they are
// written. A userProvided embedder's vectors come from the records'
// `_vectors`; a rest or function embedder's are computed by the engine from
// each record's text (its embedders' documentTemplate) and kept here with
// the hash of that text, so a record written again with the same text is
// not embedded again. A record's own `_vectors` entry wins over embedding.
import { VECTOR_DEFAULTS, VectorSpace, type NearestVectors } from '../core/vector-space.js';
import { documentText, sameVectorSpace, textHash, type EmbedderSettings } from './embedder-settings.js';
import { writtenVector } from './record-vectors.js';
import type { SearchRecord } from '../index/records.js';

/** A vector an embedder computed for a record's text. */
export interface EmbeddedVector { objectID: string; hash: string; vector: Float32Array }

/** A record's text an embedder has yet to embed. */
export interface EmbeddingJob { embedder: string; objectID: string; text: string; hash: string }

/** The vectors a snapshot holds: each space as the core exported it, and the computed vectors. */
export interface VectorsSnapshot {
  spaces: Array<[embedder: string, parts: Uint8Array[]]>;
  embedded: Array<[embedder: string, entries: Array<[objectID: string, hash: string, vector: Uint8Array]>]>;
}

/** What makes an embedder's texts: a change of it leaves the vectors valid but their texts to check again. */
const textRecipe = (settings: EmbedderSettings) => (settings.source === 'userProvided' ? '' : JSON.stringify([settings.documentTemplate, settings.documentTemplateMaxBytes]));

/**
 * Tombstones (vectors deleted or replaced, still routing searches) that
 * start a rebuild of a space once they outnumber its live vectors: past
 * that, walks slow down (1.3x the whole graph's time at half the nodes
 * dead, 4x at 90%: bench/vectors.mjs --deletes). Fewer never start one.
 */
const REBUILD_MIN_TOMBSTONES = 1000;
/** Records copied into a space being rebuilt per step, between which searches run. */
const REBUILD_COPY_STEP = 500;

/** Vectors of its own a space is checked with per round of calibration (see VectorSpace.calibrate). */
const CALIBRATION_SAMPLES = 5;

/** A space built again without its tombstones, a step at a time; every write reaches it meanwhile. */
interface Replacement {
  space: VectorSpace;
  /** The record ids that had a vector when the rebuild began, and how many are copied. */
  ids: Int32Array;
  copied: number;
}

/** One embedder's vectors in an index. */
class EmbedderVectors {
  space: VectorSpace;
  /** objectID → what the embedder computed for it (rest and function embedders). */
  readonly embedded = new Map<string, { hash: string; vector: Float32Array }>();
  private replacement: Replacement | undefined;
  /** The size the space was last calibrated at: it is again once it doubles. */
  private calibratedAt = 0;

  constructor(readonly name: string, public settings: EmbedderSettings, space?: VectorSpace) {
    this.space = space ?? new VectorSpace(settings.dimensions);
  }

  /** The text of a record this embedder embeds (undefined: it does not compute vectors). */
  textOf(record: SearchRecord, searchable: string[] | null): string | undefined {
    const settings = this.settings;
    if (settings.source === 'userProvided') return undefined;
    return documentText(settings.documentTemplate, record, searchable, settings.documentTemplateMaxBytes);
  }

  // every change of the space reaches its replacement too, while one is built

  set(id: number, vector: ArrayLike<number>): void {
    this.space.set(id, vector);
    this.replacement?.space.set(id, vector);
  }

  delete(id: number): void {
    this.space.delete(id);
    this.replacement?.space.delete(id);
  }

  /** See VectorSpace.move; a record not copied into the replacement yet is copied under its new id later. */
  move(from: number, to: number): boolean {
    const moved = this.space.move(from, to);
    if (moved) this.replacement?.space.move(from, to);
    return moved;
  }

  relabel(newIds: Int32Array): void {
    this.space.relabel(newIds);
    this.replacement = undefined; // ids issued again: a rebuild starts over when it is due
  }

  /** Whether the space links vectors written, or rebuilds itself: work for the linker. */
  get busy(): boolean { return this.space.pending > 0 || this.replacement !== undefined || this.worn || this.calibrationDue; }

  /** Whether the graph is to be checked against exact scans (see VectorSpace.calibrate): once it has grown to twice the size it was checked at. */
  private get calibrationDue(): boolean {
    return this.space.size >= 2 * Math.max(1, this.calibratedAt) && this.space.size > VECTOR_DEFAULTS.exactBelow;
  }

  private get worn(): boolean {
    return this.space.tombstones > Math.max(this.space.size, REBUILD_MIN_TOMBSTONES);
  }

  /**
   * About `budgetMs` of upkeep: linking vectors written, then rebuilding a
   * worn space (copying its records' vectors into a new one, linking
   * them, and taking it in place of the old once all are linked).
   * `vectorOf`: a live record's vector, by record id; `liveIds`: the
   * index's live record ids.
   */
  upkeep(budgetMs: number, vectorOf: (id: number) => ArrayLike<number> | undefined, liveIds: () => Iterable<number>): void {
    if (this.space.pending > 0) { this.space.linkSome(budgetMs); return; }
    if (!this.replacement && !this.worn && this.calibrationDue) { this.calibrateRound(vectorOf, liveIds); return; }
    if (!this.replacement) {
      if (!this.worn) return;
      const ids = Int32Array.from(liveIds());
      this.replacement = { space: new VectorSpace(this.settings.dimensions), ids, copied: 0 };
    }
    const r = this.replacement;
    if (r.copied < r.ids.length) {
      const end = Math.min(r.ids.length, r.copied + REBUILD_COPY_STEP);
      for (; r.copied < end; r.copied++) {
        const id = r.ids[r.copied];
        const vector = this.space.has(id) && !r.space.has(id) ? vectorOf(id) : undefined;
        if (vector) r.space.set(id, vector);
      }
      return;
    }
    if (r.space.linkSome(budgetMs) > 0) return;
    this.space = r.space;
    this.replacement = undefined;
    this.calibratedAt = 0;
  }

  /** A round of the graph's calibration, on vectors of a few of its records drawn at random. */
  private calibrateRound(vectorOf: (id: number) => ArrayLike<number> | undefined, liveIds: () => Iterable<number>): void {
    const ids = Int32Array.from(liveIds());
    const samples: Array<ArrayLike<number>> = [];
    for (let tries = 0; samples.length < CALIBRATION_SAMPLES && tries < 4 * CALIBRATION_SAMPLES && ids.length > 0; tries++) {
      const id = ids[Math.floor(Math.random() * ids.length)];
      const vector = this.space.has(id) ? vectorOf(id) : undefined;
      if (vector) samples.push(vector);
    }
    if (this.space.calibrate(samples)) this.calibratedAt = this.space.size;
  }
}

export class IndexVectors {
  private readonly embedders = new Map<string, EmbedderVectors>();
  /** Texts waiting for an embedder, by embedder then objectID (the newest text of a record wins). */
  private readonly waiting = new Map<string, Map<string, EmbeddingJob>>();

  /** Whether the index has any embedder (searches and writes skip vectors otherwise). */
  get any(): boolean { return this.embedders.size > 0; }
  names(): string[] { return [...this.embedders.keys()]; }
  settingsOf(name: string): EmbedderSettings | undefined { return this.embedders.get(name)?.settings; }

  /**
   * Takes the index's embedders setting: spaces of embedders gone are
   * dropped, those of new or changed embedders made and filled from
   * `records` (vectors computed for an embedder whose model changed are
   * dropped: they are embedded again).
   */
  configure(settings: Readonly<Record<string, EmbedderSettings>> | undefined, records: Iterable<[number, SearchRecord]>, searchable: string[] | null): void {
    const wanted = new Map(Object.entries(settings ?? {}));
    /** Embedders whose vectors stay but whose texts changed: each record's text is checked again. */
    const retexted: EmbedderVectors[] = [];
    for (const [name, e] of [...this.embedders]) {
      const next = wanted.get(name);
      if (!next || !sameVectorSpace(e.settings, next)) { this.embedders.delete(name); this.waiting.delete(name); continue; }
      if (textRecipe(next) !== textRecipe(e.settings)) retexted.push(e);
      e.settings = next;
    }
    const fresh = [...wanted].filter(([name]) => !this.embedders.has(name)).map(([name, s]) => new EmbedderVectors(name, s));
    if (fresh.length === 0 && retexted.length === 0) return;
    for (const e of fresh) this.embedders.set(e.name, e);
    for (const [id, record] of records) {
      for (const e of fresh) this.place(e, id, record, searchable);
      for (const e of retexted) this.vectorNow(e, record, searchable); // the texts that changed wait; their old vectors stay meanwhile
    }
  }

  /** Whether `embedder` still needs a vector for this text of a record (none computed for it since it was queued). */
  needsEmbedding(embedder: string, objectID: string, hash: string): boolean {
    const e = this.embedders.get(embedder);
    return e !== undefined && e.embedded.get(objectID)?.hash !== hash;
  }

  /** A record was written under record id `id` (its previous version, if any, was removed first). */
  noteSaved(id: number, record: SearchRecord, searchable: string[] | null, replaced?: { id: number; record: SearchRecord }): void {
    for (const e of this.embedders.values()) {
      // a new version with the vector of the one it replaces keeps its node in the graph, linked as it is
      if (replaced && this.sameVector(e, replaced.record, record, searchable) && e.move(replaced.id, id)) continue;
      if (replaced) e.delete(replaced.id);
      this.place(e, id, record, searchable);
    }
  }

  /** Whether two versions of a record have the same vector for `e`: the same written one, or none written and the same text. */
  private sameVector(e: EmbedderVectors, before: SearchRecord, after: SearchRecord, searchable: string[] | null): boolean {
    const [was, is] = [writtenVector(before, e.name), writtenVector(after, e.name)];
    if (was || is) return was !== undefined && is !== undefined && was.length === is.length && was.every((x, i) => x === is[i]);
    const text = e.textOf(after, searchable);
    return text !== undefined && text === e.textOf(before, searchable);
  }

  /** The record with id `id` left the index (replaced: `objectID` undefined; deleted: its computed vectors go too). */
  noteRemoved(id: number, deletedObjectID?: string): void {
    for (const e of this.embedders.values()) {
      e.delete(id);
      if (deletedObjectID !== undefined) { e.embedded.delete(deletedObjectID); this.waiting.get(e.name)?.delete(deletedObjectID); }
    }
  }

  /** Every record left the index. */
  clear(): void {
    for (const [name, e] of this.embedders) this.embedders.set(name, new EmbedderVectors(name, e.settings));
    this.waiting.clear();
  }

  /** Record ids were issued again (the index was rebuilt): newIds[old] is a record's new id (-1: gone). */
  renumber(newIds: Int32Array): void {
    for (const e of this.embedders.values()) e.relabel(newIds);
  }

  /**
   * Vectors an embedder computed: kept for records whose text is still the
   * one embedded (`idOf`: the record id of a live objectID, `textNow`: its
   * text for that embedder now); the others are dropped (written again
   * since, their newer text is waiting).
   */
  takeEmbedded(embedder: string, vectors: EmbeddedVector[], current: (objectID: string) => { id: number; record: SearchRecord } | undefined, searchable: string[] | null): void {
    const e = this.embedders.get(embedder);
    if (!e) return;
    for (const v of vectors) {
      const live = current(v.objectID);
      if (!live || v.vector.length !== e.settings.dimensions) continue;
      const text = e.textOf(live.record, searchable);
      if (text === undefined || textHash(text) !== v.hash) continue;
      e.embedded.set(v.objectID, { hash: v.hash, vector: v.vector });
      const waiting = this.waiting.get(embedder)?.get(v.objectID);
      if (waiting?.hash === v.hash) this.waiting.get(embedder)!.delete(v.objectID);
      if (writtenVector(live.record, embedder) === undefined) e.set(live.id, v.vector);
    }
  }

  /** The texts waiting to be embedded, handed over once each (the engine queues them for their embedder). */
  drainWaiting(): EmbeddingJob[] {
    const jobs: EmbeddingJob[] = [];
    for (const byObject of this.waiting.values()) jobs.push(...byObject.values());
    this.waiting.clear();
    return jobs;
  }

  /** The nearest records to `query` by `embedder`'s vectors (see VectorSpace.nearest). */
  nearest(embedder: string, query: ArrayLike<number>, k: number, allowed?: Uint32Array): NearestVectors {
    return this.embedders.get(embedder)!.space.nearest(query, k, allowed);
  }

  /** The vector `embedder` holds for a record: its written one, else the one computed for it. */
  vectorOf(embedder: string, record: SearchRecord): readonly number[] | Float32Array | undefined {
    return writtenVector(record, embedder) ?? this.embedders.get(embedder)?.embedded.get(record.objectID)?.vector;
  }

  /** Whether `embedder` has a vector for record id `id`. */
  has(embedder: string, id: number): boolean { return this.embedders.get(embedder)?.space.has(id) ?? false; }

  /** Vectors of `embedder` (live records with one). */
  sizeOf(embedder: string): number { return this.embedders.get(embedder)?.space.size ?? 0; }

  /** Vectors written and not linked into their space's graph yet (searched exactly meanwhile). */
  get pending(): number {
    let pending = 0;
    for (const e of this.embedders.values()) pending += e.space.pending;
    return pending;
  }

  /** Vectors deleted or replaced that still route searches in their graphs (see VectorSpace.tombstones). */
  get tombstones(): number {
    let tombstones = 0;
    for (const e of this.embedders.values()) tombstones += e.space.tombstones;
    return tombstones;
  }

  /** Whether the spaces have upkeep to do (vectors to link, a worn space to rebuild: see EmbedderVectors.upkeep). */
  get busy(): boolean {
    for (const e of this.embedders.values()) if (e.busy) return true;
    return false;
  }

  /** About `budgetMs` of each space's upkeep; `record`: a live record by id; `liveIds`: the live record ids. */
  upkeep(budgetMs: number, record: (id: number) => SearchRecord | undefined, liveIds: () => Iterable<number>): void {
    for (const e of this.embedders.values()) {
      e.upkeep(budgetMs, (id) => {
        const found = record(id);
        return found && this.vectorOf(e.name, found);
      }, liveIds);
    }
  }

  get memoryBytes(): number {
    let bytes = 0;
    for (const e of this.embedders.values()) bytes += e.space.memoryBytes + e.embedded.size * e.settings.dimensions * 4;
    return bytes;
  }

  async snapshot(pause: () => Promise<void>): Promise<VectorsSnapshot> {
    const spaces: VectorsSnapshot['spaces'] = [];
    const embedded: VectorsSnapshot['embedded'] = [];
    for (const e of this.embedders.values()) {
      spaces.push([e.name, await e.space.exportSnapshot(pause)]);
      if (e.embedded.size > 0) {
        embedded.push([e.name, [...e.embedded].map(([objectID, v]) => [objectID, v.hash, new Uint8Array(v.vector.buffer, v.vector.byteOffset, v.vector.byteLength)])]);
      }
    }
    return { spaces, embedded };
  }

  /**
   * The vectors of a restored index: its spaces imported as they were
   * exported, for the embedders `settings` still has (a snapshot without
   * them rebuilds them from the records); the texts without a current
   * vector wait again. A space that does not import, or does not hold the
   * vectors its records say it holds, is refused: the snapshot is damaged
   * (its proof fails, so it never replaces a good one).
   */
  static async restore(
    snapshot: VectorsSnapshot | undefined, settings: Readonly<Record<string, EmbedderSettings>> | undefined,
    records: () => Iterable<[number, SearchRecord]>, searchable: string[] | null, pause: () => Promise<void>,
  ): Promise<IndexVectors> {
    const vectors = new IndexVectors();
    const saved = new Map(snapshot?.spaces ?? []);
    for (const [name, s] of Object.entries(settings ?? {})) {
      const parts = saved.get(name);
      vectors.embedders.set(name, new EmbedderVectors(name, s, parts ? await importedSpace(name, parts, s.dimensions, pause) : undefined));
    }
    for (const [name, entries] of snapshot?.embedded ?? []) {
      const e = vectors.embedders.get(name);
      if (!e) continue;
      for (const [objectID, hash, bytes] of entries) {
        const copy = bytes.slice();
        e.embedded.set(objectID, { hash, vector: new Float32Array(copy.buffer, 0, copy.byteLength >>> 2) });
      }
    }
    const rebuilt = [...vectors.embedders.values()].filter((e) => !saved.has(e.name));
    const imported = [...vectors.embedders.values()].filter((e) => saved.has(e.name)).map((e) => ({ e, may: 0 }));
    for (const [id, record] of records()) {
      for (const e of rebuilt) vectors.place(e, id, record, searchable);
      for (const check of imported) {
        const holds = vectors.noteRestored(check.e, record, searchable);
        if (holds === 'must' && !check.e.space.has(id)) throw spaceMismatch(check.e.name, `record ${JSON.stringify(record.objectID)} has no vector in it`);
        if (holds !== 'not') check.may++;
      }
    }
    for (const { e, may } of imported) {
      if (e.space.size > may) throw spaceMismatch(e.name, `it holds ${e.space.size} vectors, its records at most ${may}`);
    }
    return vectors;
  }

  /** Puts a record's vector in `e`'s space, when it has one now (see vectorNow). */
  private place(e: EmbedderVectors, id: number, record: SearchRecord, searchable: string[] | null): void {
    const { vector } = this.vectorNow(e, record, searchable);
    if (vector) e.set(id, vector);
  }

  /**
   * A record of a restored space (see vectorNow), and whether the space must
   * hold its vector (written, or computed from its text now), may hold one
   * (computed from an older text: kept while the new one waits) or holds none.
   */
  private noteRestored(e: EmbedderVectors, record: SearchRecord, searchable: string[] | null): 'must' | 'may' | 'not' {
    const { vector, stale } = this.vectorNow(e, record, searchable);
    return vector ? 'must' : stale ? 'may' : 'not';
  }

  /**
   * The vector `e` has for a record now: its written one (of the embedder's
   * dimensions: one written before they changed stays out), or the one
   * computed from its text as it is. A record with text to embed and no
   * vector for it has its text wait (`stale`: a vector computed from an
   * older text of it is kept meanwhile).
   */
  private vectorNow(e: EmbedderVectors, record: SearchRecord, searchable: string[] | null): { vector?: ArrayLike<number>; stale?: boolean } {
    const written = writtenVector(record, e.name);
    if (written) return written.length === e.settings.dimensions ? { vector: written } : {};
    const text = e.textOf(record, searchable);
    if (text === undefined) return {};
    const hash = textHash(text);
    const computed = e.embedded.get(record.objectID);
    if (computed?.hash === hash) return { vector: computed.vector };
    this.wait(e.name, { embedder: e.name, objectID: record.objectID, text, hash });
    return { stale: computed !== undefined };
  }

  private wait(embedder: string, job: EmbeddingJob): void {
    let byObject = this.waiting.get(embedder);
    if (!byObject) this.waiting.set(embedder, (byObject = new Map()));
    byObject.set(job.objectID, job);
  }
}

/** A snapshot's space of embedder `name`, imported; refused when it does not import or has other dimensions than `dimensions`. */
async function importedSpace(name: string, parts: Uint8Array[], dimensions: number, pause: () => Promise<void>): Promise<VectorSpace> {
  let space: VectorSpace;
  try {
    space = await VectorSpace.importSnapshot(parts, pause);
  } catch (e) {
    throw spaceMismatch(name, `it does not load (${(e as Error).message})`);
  }
  if (space.dimensions !== dimensions) throw spaceMismatch(name, `it has ${space.dimensions} dimensions, the embedder ${dimensions}`);
  return space;
}

const spaceMismatch = (embedder: string, why: string) => new Error(`the vector space of embedder "${embedder}" is damaged: ${why}`);
