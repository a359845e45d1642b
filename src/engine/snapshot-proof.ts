// Where a snapshot is proven. A large one written to a file is loaded back
// in a worker thread, by the Node build's `proof-worker.js` next to this
// bundle: decoding it, loading every index into a core of its own and
// reading every record then hold neither the main thread nor its heap (at a
// million records they stalled searches for hundreds of milliseconds at a
// time). A small one, or one without that script (a browser, IndexedDB, the
// sources the tests run), is proven on the main thread between searches.
import { platform } from '../platform/platform.js';
import type { StoredSnapshot } from '../storage/storage.js';

/** What the proof worker is given. */
export interface ProofRequest {
  file: string;
  taskID: number;
  encryptionKey?: string | Uint8Array;
}

/** What it answers: the snapshot loads, or why not. */
export type ProofAnswer = { ok: true } | { ok: false; message: string };

/** The worker script of the Node build (dist/proof-worker.js), next to the bundle chunk this module is in. */
const PROOF_WORKER = new URL('./proof-worker.js', import.meta.url);

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
  return async ({ file, bytes, taskID }) => {
    if (file === undefined || bytes === undefined || bytes < WORKER_PROOF_BYTES) return false;
    const request: ProofRequest = { file, taskID, ...(encryptionKey === undefined ? {} : { encryptionKey }) };
    // a worker that failed to answer (out of memory, say) proves nothing either way: the snapshot is proven here
    const ran = await platform.runWorker(PROOF_WORKER, request).catch(() => undefined);
    if (!ran) return false;
    const answer = ran.message as ProofAnswer;
    if (!answer.ok) throw new Error(answer.message);
    return true;
  };
}
