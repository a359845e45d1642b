// Where a snapshot is proven. A large one is loaded back in a worker thread,
// by the Node build's `proof-worker.js` next to this bundle: decoding it,
// loading every index into a core of its own and reading every record then
// hold neither the main thread nor its heap (at a million records they
// stalled searches for hundreds of milliseconds at a time). The worker reads
// a snapshot written to a file itself; one stored elsewhere (a NATS object
// store) is read here and its bytes handed over (moved, not copied). A small
// one, or one without that script (a browser, IndexedDB, the sources the
// tests run), is proven on the main thread between searches.
import { platform } from '../platform/platform.js';
import type { StoredSnapshot } from '../storage/storage.js';

/** What the proof worker is given: the snapshot's file, or its bytes. */
export interface ProofRequest {
  file?: string;
  snapshot?: Uint8Array;
  taskID: number;
  encryptionKey?: string | Uint8Array;
}

/** What it answers: the snapshot loads, or why not. */
export type ProofAnswer = { ok: true } | { ok: false; message: string };

/**
 * Snapshots from this size are proven in a worker: below it, proving here
 * takes less than starting a worker thread and compiling a core in it
 * (~0.15 s), in steps short enough for searches to pass between them.
 */
const WORKER_PROOF_BYTES = 16 << 20;

/**
 * Proves a large snapshot file in a worker thread: resolves true once it
 * loads there, false when it is not proven there (prove it here instead:
 * no worker script, or a worker that stopped without answering), and
 * rejects with the reason it does not load.
 */
export function workerProof(encryptionKey?: string | Uint8Array): (stored: StoredSnapshot) => Promise<boolean> {
  return async (stored) => {
    const { file, bytes, taskID } = stored;
    const script = platform.proofWorker;
    // a browser has no proof worker: a snapshot there is not even read for one
    if (script === undefined || bytes === undefined || bytes < WORKER_PROOF_BYTES) return false;
    const snapshot = file === undefined ? whole(await stored.read()) : undefined;
    const request: ProofRequest = { taskID, ...(file === undefined ? { snapshot } : { file }), ...(encryptionKey === undefined ? {} : { encryptionKey }) };
    // a worker that failed to answer (out of memory, say) proves nothing either way: the snapshot is proven here
    const ran = await platform.runWorker(script, request, snapshot ? [snapshot.buffer] : []).catch(() => undefined);
    if (!ran) return false;
    const answer = ran.message as ProofAnswer;
    if (!answer.ok) throw new Error(answer.message);
    return true;
  };
}

/** Bytes over a buffer of their own, which can be moved to a worker (a view of a larger or shared one is copied). */
function whole(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const ownBuffer = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return ownBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}
