// The messages between the writer's read pool (read-pool.ts, the main
// thread) and a read worker (src/read-worker.ts): the image and the stream
// of operations one way, acknowledgements and answers the other, and the
// read calls the router forwards with what it checked (the caller) and
// what they need (parameters, query, body, headers, address).
import type { ReplicatedOp, StateImage } from '../durability/replication.js';
import type { WriteOperation } from '../engine/writes.js';
import type { OperationContext } from '../api/types.js';
import type { ErrorCode } from '../util/errors.js';
import type { SearchEvent } from '../analytics/events.js';

/** A forwarded call: its handler's context without the engine, services and steps (the worker has its own). */
export type ReadCall = Omit<OperationContext<string, unknown>, 'engine' | 'services' | 'step'>;

/** A read's outcome: its result (a reply's status and headers too), or the error it failed with. */
export type ReadAnswer =
  | { ok: true; result: unknown; reply?: { status: number; headers?: Record<string, string>; nbHits?: number } }
  | { ok: false; code?: ErrorCode; message: string };

/** From the pool to a worker. */
export type ToWorker =
  | { type: 'image'; image: StateImage; cursorKey: CryptoKey }
  | { type: 'op'; entry: ReplicatedOp<WriteOperation> }
  | { type: 'read'; id: number; op: string; call: ReadCall };

/** From a worker to the pool. */
export type FromWorker =
  /** The image is loaded: it answers reads from now on. */
  | { type: 'ready' }
  | { type: 'applied'; taskID: number }
  /** `searches`: the search events its reads recorded, for the writer to record. */
  | { type: 'answer'; id: number; answer: ReadAnswer; searches: SearchEvent[] }
  /** Its replica failed to apply an operation: it stops. */
  | { type: 'failed'; message: string };
