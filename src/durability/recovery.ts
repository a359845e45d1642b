// Recovery: from what a storage hands over at open to an engine's state. The
// newest snapshot that loads and holds what its name says, then every intact
// log record after it. Damage that costs nothing (an unreadable snapshot with
// an older one to stand in, a damaged record a snapshot already holds, a
// write torn before it was acknowledged) is reported and recovered from.
// Damage that would lose acknowledged writes stops the open with a
// StoreDamagedError, unless the caller asked to repair: then what can be kept
// is kept and the rest reported. A missing encryption key, or one that
// decrypts nothing, is a key error, never damage: it is thrown before
// anything is judged lost, so neither an open nor a repair changes a byte;
// so is a snapshot of a format newer than this code reads. A snapshot of an
// older format is upgraded as it is decoded (snapshot-upgrade.ts), and the
// store then stands on a new one.
import { MissingEncryptionKeyError, StorageError, StoreDamagedError, WrongEncryptionKeyError } from '../storage/errors.js';
import type { Damage, StoredState, Unusable } from '../storage/storage.js';
import { UndecryptableError, type Codec } from './persistence.js';
import { SNAPSHOT_FORMAT, SnapshotFormatError, upgradeSnapshot } from './snapshot-upgrade.js';

/** An index of a snapshot that could not be loaded (the rest of the snapshot may be sound). */
export class IndexLoadError extends StorageError {
  override name = 'IndexLoadError';
  constructor(readonly indexName: string, reason: string) {
    super(`index "${indexName}" cannot be loaded (${reason})`);
  }
}

/** What recovery does to the engine. */
export interface RecoveryTarget<State> {
  /**
   * Loads a decoded snapshot; throws when it cannot. With `quarantine`, an
   * index that cannot be loaded is set aside instead (kept as it is stored,
   * refused with a clear error) and its name returned.
   */
  restore(state: State, quarantine: boolean): Promise<string[]>;
  /** Back to empty after a snapshot failed halfway. */
  reset(): void;
  /** Applies one logged operation again. */
  replay(op: unknown, taskID: number): void;
}

export interface Recovered {
  /** The last task the engine now holds. */
  lastTaskID: number;
  /** What was found wrong and recovered from (or, with repair, given up). */
  problems: string[];
  /** The problems that lost acknowledged writes (only ever non-empty with repair). */
  lost: string[];
  /** The newest snapshot could not be used, or is of an older format: the store should stand on a new one. */
  fellBack: boolean;
  /** Stored pieces that could not be used: the storage sets them aside (never deletes them). */
  unusable: Unusable;
  /** Where the storage set aside what could not be used, a line each (see Storage's `repair`). */
  setAside: string[];
}

export const REPAIR_HINT = 'Nothing was changed: open it with `repair: true` (on the command line, `lantern repair --data DIR`) to keep what can be kept';

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function recover<State extends { lastTaskID: number }>(
  stored: StoredState, codec: Codec, target: RecoveryTarget<State>, repair: boolean,
): Promise<Recovered> {
  const problems = stored.damage.map((d) => d.what);
  const lost: string[] = [];
  const keys = new KeyEvidence(codec);
  const unusable: Unusable = { snapshots: [], logRecords: [] };

  let base = 0;
  // the newest snapshot an index of which failed to load: used, with that index quarantined, when no snapshot loads whole
  let partial: { taskID: number; state: State; format: number } | undefined;
  // the format the snapshot loaded was written in
  let format = SNAPSHOT_FORMAT;
  for (const snapshot of stored.snapshots) {
    let decoded: Decoded<State> | undefined;
    try {
      const bytes = await snapshot.read();
      decoded = await keys.watch(() => decodeStored<State>(codec, bytes, snapshot.taskID));
      // indexes quarantined before stay quarantined, and are reported at every open
      for (const name of await target.restore(decoded.state, false)) problems.push(quarantineNote(name, snapshot.taskID));
      base = snapshot.taskID;
      format = decoded.format;
      break;
    } catch (e) {
      // a key error, or a newer version's snapshot: nothing is judged from what cannot be read here
      if (e instanceof MissingEncryptionKeyError || e instanceof SnapshotFormatError) throw e;
      if (e instanceof IndexLoadError && decoded) partial ??= { taskID: snapshot.taskID, ...decoded };
      problems.push(`the snapshot of task ${snapshot.taskID} cannot be used: ${messageOf(e)}`);
      unusable.snapshots.push(snapshot.taskID);
      target.reset();
    }
  }
  if (base === 0 && partial) {
    // open the other indexes rather than none
    for (const name of await target.restore(partial.state, true)) problems.push(quarantineNote(name, partial.taskID));
    base = partial.taskID;
    format = partial.format;
    unusable.snapshots = unusable.snapshots.filter((taskID) => taskID !== base);
  }
  if (base === 0 && stored.needsSnapshot && stored.log[0]?.taskID !== 1) {
    lost.push('no snapshot the store stood on could be loaded, and the log does not reach back to the first write');
  }
  lost.push(...stored.damage.flatMap((d) => lostBy(d, base)));

  let lastTaskID = base;
  for (const entry of stored.log) {
    if (entry.taskID <= base) continue;
    let op: unknown;
    try {
      op = await keys.watch(() => codec.decodeOperation(entry.bytes));
    } catch (e) {
      if (e instanceof MissingEncryptionKeyError) throw e;
      lost.push(`the log record of task ${entry.taskID} is unreadable (${messageOf(e)})`);
      unusable.logRecords.push(entry.taskID);
      continue;
    }
    try {
      target.replay(op, entry.taskID);
    } catch (e) {
      console.error(`lantern: replaying task ${entry.taskID} failed; it is skipped`, e);
    }
    lastTaskID = entry.taskID;
  }

  keys.check();
  const reported = [...problems, ...lost.filter((p) => !problems.includes(p))];
  if (lost.length > 0 && !repair) throw new StoreDamagedError(reported, REPAIR_HINT);
  for (const problem of reported) console.warn(`lantern: ${problem}`);
  const fellBack = (stored.snapshots.length > 0 && base !== stored.snapshots[0].taskID) || format < SNAPSHOT_FORMAT;
  return { lastTaskID, problems: reported, lost, fellBack, unusable, setAside: [] };
}

/** A snapshot's state in the current format, and the format it was written in. */
interface Decoded<State> {
  state: State;
  format: number;
}

/**
 * The state a snapshot's bytes hold, upgraded to the current format (see
 * snapshot-upgrade.ts), checked to be the one taken after `taskID` (not a
 * file of another time or store).
 */
export async function decodeSnapshotOf<State extends { lastTaskID: number }>(
  codec: Codec, bytes: Uint8Array, taskID: number, pause?: () => Promise<void>,
): Promise<State> {
  return (await decodeStored<State>(codec, bytes, taskID, pause)).state;
}

async function decodeStored<State extends { lastTaskID: number }>(
  codec: Codec, bytes: Uint8Array, taskID: number, pause?: () => Promise<void>,
): Promise<Decoded<State>> {
  const state = await codec.decodeSnapshot(bytes, pause) as State & { version?: unknown };
  if (state.lastTaskID !== taskID) {
    throw new StorageError(`it holds the state after task ${state.lastTaskID}, not ${taskID} (a file of another time or store)`);
  }
  return { format: await upgradeSnapshot(state, pause), state };
}

const quarantineNote = (name: string, taskID: number) =>
  `index "${name}" of the snapshot of task ${taskID} is quarantined: it answers 503 until it is deleted, and stays in later snapshots as it was stored`;

/** Acknowledged writes a piece of damage may have held that the snapshot loaded does not. */
function lostBy(damage: Damage, base: number): string[] {
  if (damage.unknownLoss) return [damage.what];
  const span = damage.log;
  if (!span || span.before === undefined) return [];
  const from = Math.max(span.after, base) + 1;
  const to = span.before - 1;
  if (from > to) return [];
  return [`${damage.what}: ${from === to ? `task ${from}` : `tasks ${from} to ${to}`} may be lost`];
}

/**
 * Tells a wrong key from damage: a key that decrypts no sealed piece at all
 * is wrong, while a piece that fails to decrypt among others that do is
 * damaged (AES-GCM fails the same way for both).
 */
class KeyEvidence {
  private undecryptable = 0;

  constructor(private readonly codec: Codec) {}

  async watch<T>(decode: () => Promise<T>): Promise<T> {
    try {
      return await decode();
    } catch (e) {
      if (e instanceof UndecryptableError) this.undecryptable++;
      throw e;
    }
  }

  /** Throws a WrongEncryptionKeyError when pieces failed to decrypt and none did. */
  check(): void {
    if (this.undecryptable > 0 && this.codec.unsealed === 0) throw new WrongEncryptionKeyError();
  }
}
