// What the engine needs from persistence: an ordered, durable log of write
// operations. Adapters know nothing about search.

export interface LoggedOperation {
  taskID: number;
  [field: string]: unknown;
}

export interface Storage {
  /** Every operation logged so far, in order (a torn tail is dropped and reported). */
  load(): Promise<LoggedOperation[]>;
  /** Resolves once `op` is durable. */
  append(op: LoggedOperation): Promise<void>;
  close(): Promise<void>;
}

/** Keeps nothing: an engine that lives as long as its process. */
export function memoryStorage(): Storage {
  return {
    load: async () => [],
    append: async () => {},
    close: async () => {},
  };
}
