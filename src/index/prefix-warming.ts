// The prefix cache's one-letter entries, built while the thread is idle: a
// first keystroke is a one-letter prefix, whose subtree is the largest a
// query reads, and its first ask built the entry itself (several times an
// answer's usual time). Once writes pause (see idle-work.ts), each step
// builds the core's entry of one letter, the costliest to decode first, as
// that first ask would (assembly/prefix-warming.ts), until the letters a
// first ask would cache are all cached.
import type { CoreIndex } from '../core/core-index.js';
import { IdleWork } from './idle-work.js';

/** Quiet time after the last write before a step, as for packing records (see record-store.ts). */
const WARM_QUIET_MS = 100;

/**
 * The idle warming of the core an index searches, the index held weakly:
 * a dropped index is not kept alive for it. Its `noteWrite` is called after
 * each write of the index's records and once its core is restored.
 */
export function prefixWarmingOf(index: WeakRef<{ readonly coreIndex: CoreIndex }>): IdleWork {
  return new IdleWork(() => index.deref()?.coreIndex.warmPrefixes() ?? false, WARM_QUIET_MS);
}
