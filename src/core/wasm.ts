// Compiles the WebAssembly core once per process; every index gets its own
// instance (its own linear memory), so dropping an index frees its memory.
import wasmBytes from '../../build/lantern.wasm';

/**
 * The core's exports, declared here because the package's types cannot
 * reach build/ (not shipped); test/core/interface.test.ts checks that they
 * are what the compiler declares (build/lantern.d.ts) and what the instance
 * exports.
 */
export interface CoreExports {
  readonly memory: WebAssembly.Memory;
  scratch(bytes: number): number;
  paramsPtr(): number;
  resultsPtr(): number;
  resultsLength(): number;
  setSeparators(count: number): void;
  setAttributes(count: number): void;
  addDocuments(): void;
  removeDocument(doc: number): void;
  setRanks(slot: number, count: number): void;
  setRanksOf(slot: number, count: number): void;
  rankSlotLength(slot: number): number;
  sortKeys(count: number): void;
  search(): void;
  prepareQuery(): void;
  prepareSearches(): void;
  warmPrefixes(): number;
  listNewTerms(): number;
  termsToList(): number;
  unmatchedWords(): number;
  candidatesPtr(): number;
  candidateWords(): number;
  /** 1 when the texts held a unit between UNSPACED_FIRST and UNSPACED_LAST. */
  highlightTexts(count: number): number;
  markedAttributes(count: number): void;
  compactSome(first: number, budget: number): number;
  postingBytes(): number;
  exportSnapshotBegin(): void;
  exportSnapshotSome(budget: number): number;
  importSnapshotBegin(length: number): number;
  importSnapshotSome(budget: number): number;
  termTotal(): number;
  liveTotal(): number;
  blocksDecoded(): number;
  blocksSkipped(): number;
  prefixCacheEntries(): number;
  termIndexedRecords(): number;
  listRecordPositions(): number;
  positionListedRecords(): number;
  recordsScannedAtOnce(): number;
  walkCopyCurrent(): number;
  storeSigner(): number;
  freeSigner(slot: number): void;
  screenSigners(count: number): number;
  vectorConfigure(dimensions: number, links: number, efConstruction: number): number;
  vectorDimensions(): number;
  vectorLinks(): number;
  vectorEfConstruction(): number;
  vectorSet(label: number): number;
  vectorDelete(label: number): void;
  vectorHas(label: number): number;
  vectorRelabel(count: number): void;
  vectorMove(from: number, to: number): number;
  vectorLinkSome(count: number): number;
  vectorSize(): number;
  vectorPending(): number;
  vectorTombstones(): number;
  vectorBytes(): number;
  vectorSearch(k: number, ef: number, exactBelow: number, words: number): number;
  vectorExportBegin(): void;
  vectorExportSome(budget: number): number;
  vectorImportBegin(length: number): number;
  vectorImportSome(budget: number): number;
}

let compiled: Promise<WebAssembly.Module> | undefined;

export function compileCore(): Promise<WebAssembly.Module> {
  compiled ??= WebAssembly.compile(wasmBytes as Uint8Array<ArrayBuffer>);
  return compiled;
}

let ready: WebAssembly.Module | undefined;

/** Compiles the core (once); after it resolves, `instantiateCore` is synchronous. */
export async function loadCore(): Promise<void> {
  ready ??= await compileCore();
}

/** Where the core streams a snapshot it writes (`write`) or reads (`read`, bytes copied, 0 at the end). */
export interface SnapshotStream {
  write(bytes: Uint8Array): void;
  read(into: Uint8Array): number;
}

/** Whether `loadCore` has resolved (`instantiateCore` may be called). */
export function isCoreLoaded(): boolean { return ready !== undefined; }

/** A core instance and the stream its snapshot calls go to (set around each step of a snapshot's export or import). */
export interface CoreInstance { core: CoreExports; stream: { current: SnapshotStream | undefined } }

export function instantiateCore(): CoreInstance {
  if (!ready) throw new Error('lantern core not loaded: await loadCore() first');
  const stream: { current: SnapshotStream | undefined } = { current: undefined };
  const bytesAt = (ptr: number, length: number) => new Uint8Array(core.memory.buffer, ptr, length);
  const instance = new WebAssembly.Instance(ready, {
    env: {
      abort(_message: number, _file: number, line: number, column: number) {
        throw new Error(`lantern core aborted at ${line}:${column}`);
      },
      snapshotWrite(ptr: number, length: number) { stream.current!.write(bytesAt(ptr, length)); },
      snapshotRead(ptr: number, capacity: number) { return stream.current!.read(bytesAt(ptr, capacity)); },
    },
  });
  const core = instance.exports as unknown as CoreExports;
  return { core, stream };
}
