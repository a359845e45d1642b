// The snapshot format: what the state in a snapshot looks like, and how a
// snapshot of an older format is brought to the current one. A snapshot's
// header says its format (`version`); a snapshot of an older format is
// upgraded here, one step per version, before any state section sees it, so
// the sections and the index readers read the current shape only. A snapshot
// of a format newer than this code reads is refused (SnapshotFormatError),
// never opened wrong.
//
// SNAPSHOT_FORMAT is raised whenever what a snapshot holds changes shape,
// with a step from the format before it below and a fixture store of the old
// format in test/fixtures/stores/ (see test/persistence/formats.test.ts).
//
//   1  Lantern 0.1.0: a whole snapshot ("LNTS"); an index's core is one byte
//      array (core format 3: a record's forward list length alone) and its
//      records are MessagePack in chunks of 512 record ids; no rank
//      freshness, no dictionaries, no quarantine.
//   2  Snapshots in sections ("LNT2", see persistence.ts); an index's core
//      is a list of parts (core format 4: a live record's forward list
//      length plus one, 0 = no record) with `ranksFresh`, its records are
//      JSON text in chunks of 16 (`format: 'json'`); the application's
//      dictionaries; quarantined indexes.
//
// Formats that are versioned apart and read where they are stored: the
// container (the magic: "LNTS", "LNT2", persistence.ts), the core's binary
// snapshot (its own magic and version, assembly/snapshot.ts: it reads 4,
// and 3 is upgraded here with the snapshot format that held it), the data
// directory's manifest (src/storage/manifest.ts, format 1; a directory from
// before manifests is described when it is opened, src/storage/fs.ts) and
// the IndexedDB database (its schema version, src/storage/idb.ts).
import { decode } from '../util/msgpack.js';
import { deflate, deflateNow, inflate } from '../util/compression.js';
import { ByteWriter } from '../util/bytes.js';
import { StorageError, StoreFormatError } from '../storage/errors.js';

/** The format of the snapshots this code writes (the header's `version`). */
export const SNAPSHOT_FORMAT = 2;

/** The oldest format still read. */
const OLDEST_FORMAT = 1;

/** A snapshot of a format this code does not read: written by a newer Lantern (or not a snapshot's header). */
export class SnapshotFormatError extends StoreFormatError {
  /** `'SnapshotFormatError'`: how to tell the error apart where bundles hold copies of the class (instanceof may not). */
  override name = 'SnapshotFormatError';
}

/** A decoded snapshot's state, of any format still read. */
type AnyState = { version?: unknown } & Record<string, unknown>;

/** Turns a state of format `from` into one of format `from + 1`. */
type Step = (state: AnyState, pause: () => Promise<void>) => Promise<void>;

/** STEPS[v] upgrades format v to v + 1. */
const STEPS: Record<number, Step> = {
  1: fromFormat1,
};

/**
 * Brings a decoded snapshot's state to the current format, in place, a step
 * per version (`pause` runs between indexes); returns the format it was
 * written in. Throws SnapshotFormatError for a format it does not read.
 */
export async function upgradeSnapshot(decoded: { version?: unknown }, pause: () => Promise<void> = async () => {}): Promise<number> {
  const state = decoded as AnyState;
  const written = state.version;
  if (typeof written !== 'number' || !Number.isInteger(written) || written < OLDEST_FORMAT) {
    throw new SnapshotFormatError(`the snapshot says it is of format ${String(written)}, which no Lantern wrote`);
  }
  if (written > SNAPSHOT_FORMAT) {
    throw new SnapshotFormatError(
      `the snapshot is of format ${written}, newer than this Lantern reads (format ${SNAPSHOT_FORMAT} and older): open the store with the newer version that wrote it`,
    );
  }
  for (let version = written; version < SNAPSHOT_FORMAT; version++) {
    await STEPS[version](state, pause);
    state.version = version + 1;
  }
  return written;
}

// --- format 1 (0.1.0) to 2: each step writes the shape of the format it
// upgrades to, named here (not the index layer's current one, which a
// later format may change)

/** Records of chunks format 2 packs together. */
const FORMAT_2_CHUNK_RECORDS = 16;

/** Records as format 2 holds them (src/index/record-store.ts, PackedRecords, says what each field holds). */
interface RecordsOfFormat2 {
  format: 'json';
  objectIDs: string[];
  ends: Uint8Array;
  chunks: Uint8Array[];
  chunkRecords: number;
}

/** Records as format 1 holds them: MessagePack, deflated in chunks of `chunkRecords` (the rest as RecordsOfFormat2). */
interface RecordsOfFormat1 {
  objectIDs: string[];
  ends: Uint8Array;
  chunks: Uint8Array[];
  chunkRecords: number;
}

/** An index as format 1 holds it: only what the step changes. */
interface IndexOfFormat1 {
  name: string;
  core: Uint8Array | Uint8Array[];
  ranksFresh?: boolean;
  records: RecordsOfFormat1 | RecordsOfFormat2;
}

async function fromFormat1(state: AnyState, pause: () => Promise<void>): Promise<void> {
  // 0.1.0 had no custom dictionaries: the standard entries, all enabled
  state.dictionaries = { entries: {}, disableStandardEntries: {} };
  for (const index of (state.indexes ?? []) as IndexOfFormat1[]) {
    try {
      index.core = [coreAsFormat4(index.core as Uint8Array)];
      // 0.1.0 computed an index's rank slots before exporting its core
      index.ranksFresh = true;
      index.records = await recordsAsJson(index.records as RecordsOfFormat1, pause);
    } catch (e) {
      throw new StorageError(`index "${index.name}" of a format 1 snapshot cannot be upgraded: ${e instanceof Error ? e.message : String(e)}`);
    }
    await pause();
  }
}

/**
 * Format 1's records (MessagePack, in chunks of any size) packed as format 2
 * holds them: JSON text in chunks of 16, record ids unchanged (the
 * core refers to them; removed records keep their ids, without bytes).
 * Values JSON cannot hold, which 0.1.0 accepted from in-process callers,
 * become what JSON.stringify makes of them (a non-finite number: null).
 */
async function recordsAsJson(packed: RecordsOfFormat1, pause: () => Promise<void>): Promise<RecordsOfFormat2> {
  // development builds between 0.1.0 and format 2 wrote JSON records under format 1: never released, not read
  if ('format' in packed) throw new Error('its records are JSON: a snapshot of a development build after 0.1.0, which no release reads');
  const count = packed.objectIDs.length;
  const ends = new Uint32Array(Uint8Array.from(packed.ends).buffer);
  const { chunks, chunkRecords: size } = packed;
  if (ends.length !== count) throw new Error('one end offset per record id expected');
  if (!Number.isInteger(size) || size < 1 || !Array.isArray(chunks) || chunks.length < Math.ceil(count / size)) {
    throw new Error('the chunks do not cover the record ids');
  }
  const written = new Uint32Array(count);
  const out: Uint8Array[] = [];
  const writer = new ByteWriter(1 << 16);
  let before = 0; // bytes of the chunks written so far
  let inflated: Uint8Array = new Uint8Array(0);
  let base = 0; // where the old chunk being read starts, over all of them
  for (let id = 0; id < count; id++) {
    if (id % size === 0) {
      inflated = await inflate(chunks[id / size]);
      base = id === 0 ? 0 : ends[id - 1];
    }
    const start = id === 0 ? 0 : ends[id - 1];
    if (ends[id] !== start) writer.appendUtf8(JSON.stringify(decode(inflated.subarray(start - base, ends[id] - base))));
    written[id] = before + writer.length;
    if (id % FORMAT_2_CHUNK_RECORDS === FORMAT_2_CHUNK_RECORDS - 1 || id === count - 1) {
      // on this thread where it can be (thousands of small chunks: a trip to the thread pool each cost more)
      out.push(deflateNow(writer.view()) ?? await deflate(writer.view().slice()));
      before += writer.length;
      writer.clear();
      if (out.length % 256 === 0) await pause();
    }
  }
  return { format: 'json', objectIDs: packed.objectIDs, ends: new Uint8Array(written.buffer), chunks: out, chunkRecords: FORMAT_2_CHUNK_RECORDS };
}

const CORE_MAGIC = 0x49434e4c; // "LNCI"

/**
 * A core snapshot of core format 3 (0.1.0's) as format 4: the same bytes but
 * for the version and each record's length word, which format 4 writes plus
 * one for a live record (0 = no record). Format 3 wrote 0 for a live record
 * without text too, which it read as no record: so does this. The layout
 * (u32 little endian; see assembly/snapshot.ts): magic, version, term count;
 * each term's UTF-16 length and units padded to 4 bytes; per term a posting
 * list, then per term a whole-value list (end marker, length, bytes padded
 * to 4); the record count, each record's length and forward list; the rank
 * slots. Changed in place: the array is the decoded snapshot's own.
 */
function coreAsFormat4(core: Uint8Array): Uint8Array {
  const view = new DataView(core.buffer, core.byteOffset, core.byteLength);
  let at = 0;
  const word = () => {
    if (at + 4 > core.length) throw new Error('its core snapshot is cut short');
    const value = view.getUint32(at, true);
    at += 4;
    return value;
  };
  const skip = (bytes: number) => {
    at += bytes;
    if (at > core.length) throw new Error('its core snapshot is cut short');
  };
  if (word() !== CORE_MAGIC) throw new Error('its core is not a core snapshot');
  if (word() !== 3) throw new Error('its core snapshot is not of core format 3');
  view.setUint32(4, 4, true);
  const terms = word();
  for (let t = 0; t < terms; t++) skip((word() * 2 + 3) & ~3);
  for (let t = 0; t < 2 * terms; t++) {
    word(); // the list's end marker
    skip((word() + 3) & ~3);
  }
  const records = word();
  for (let r = 0; r < records; r++) {
    const length = word();
    if (length > 0) view.setUint32(at - 4, length + 1, true);
    skip(length);
  }
  return core;
}
