// The snapshot proof worker (Node build only: dist/proof-worker.js; see
// engine/snapshot-proof.ts). Loads a snapshot (a file, or bytes handed over)
// the way a restart would,
// into an engine of its own, and answers whether it loads.
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { Lantern } from './lantern.js';
import type { ProofAnswer, ProofRequest } from './engine/snapshot-proof.js';

async function prove(request: ProofRequest): Promise<ProofAnswer> {
  try {
    const engine = await Lantern.open({ snapshotEvery: 0, ...(request.encryptionKey === undefined ? {} : { encryptionKey: request.encryptionKey }) });
    try {
      const snapshot = request.snapshot ?? new Uint8Array(await readFile(request.file!));
      await engine.proveSnapshot(snapshot, request.taskID);
    } finally {
      await engine.close();
    }
    return { ok: true };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

parentPort?.postMessage(await prove(workerData as ProofRequest));
