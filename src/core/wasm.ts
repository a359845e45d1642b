// Compiles the WebAssembly core once per process; every index gets its own
// instance (its own linear memory), so dropping an index frees its memory.
import wasmBytes from '../../build/lantern.wasm';

export interface CoreExports {
  memory: WebAssembly.Memory;
  scratch(bytes: number): number;
  paramsPtr(): number;
  resultsPtr(): number;
  resultsLength(): number;
  setSeparators(count: number): void;
  setAttributes(count: number): void;
  addDocuments(): void;
  removeDocument(doc: number): void;
  setRanks(slot: number, count: number): void;
  search(): void;
  prepareQuery(): void;
  candidatesPtr(): number;
  candidateWords(): number;
  highlight(length: number): void;
  compact(): void;
  exportSnapshot(): void;
  snapshotPtr(): number;
  snapshotLength(): number;
  importSnapshot(length: number): number;
  termTotal(): number;
  liveTotal(): number;
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

export function instantiateCore(): CoreExports {
  if (!ready) throw new Error('lantern core not loaded: await loadCore() first');
  const instance = new WebAssembly.Instance(ready, {
    env: {
      abort(_message: number, _file: number, line: number, column: number) {
        throw new Error(`lantern core aborted at ${line}:${column}`);
      },
    },
  });
  return instance.exports as unknown as CoreExports;
}
