// File system storage. A data directory holds:
//   manifest.json          the snapshots and log parts the store stands on (see manifest.ts)
//   snapshot-<task>.bin    snapshots, written to a temporary file, fsync'd, renamed
//   log-<task>.bin         closed parts of the log, named after their first task
//   log.bin                the part of the log being appended to
//   LOCK                   the pid of the process writing to the directory
//   damaged/               what recovery could not use, set aside instead of deleted
// A record is acknowledged once its frame is written whole and fsync'd: the
// frame is written at once, in order, and the fsync runs on the thread
// pool, shared by the frames written meanwhile (see group-commit.ts), or at
// once on the main thread when the engine asks (AppendOptions.atOnce). A
// write that fails is rolled back to the log's last good offset. The log is
// split where a snapshot starts, so dropping what a snapshot holds is
// deleting files, never rewriting the log.
import {
  closeSync, existsSync, fsync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync,
  unlinkSync, writeSync,
} from 'node:fs';
import { open as openFile, readFile, unlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { StorageError, StorageWriteError, StoreLockedError } from './errors.js';
import { frame, scanLog, type DamagedSpan } from './log-frames.js';
import { GroupCommit } from './group-commit.js';
import {
  MANIFEST, describeSnapshot, emptyManifest, readManifest, snapshotProblem, type Manifest, type ManifestSnapshot,
} from './manifest.js';
import {
  SNAPSHOTS_KEPT, type Damage, type Entry, type SnapshotEntry, type Storage, type StoredSnapshot, type StoredState, type Unusable,
} from './storage.js';

/** fsync on the thread pool. */
const fsyncOffThread = promisify(fsync);

const LOG = 'log.bin';
const LOCK = 'LOCK';
const DAMAGED = 'damaged';
const SEGMENT = /^log-(\d{16})\.bin$/;
const SNAPSHOT = /^snapshot-(\d{16})\.bin$/;
const padded = (taskID: number) => String(taskID).padStart(16, '0');

/** Directories this process holds open for writing. */
const openHere = new Set<string>();

function isAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

function lock(dir: string): string {
  const path = join(dir, LOCK);
  if (openHere.has(path)) throw new StoreLockedError(`${dir} is already open for writing in this process (${path})`);
  if (existsSync(path)) {
    const pid = Number(readFileSync(path, 'utf8'));
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new StoreLockedError(`${dir} is in use: ${path} is held by process ${pid}, which is still running (stop it, or use another --data directory)`);
    }
    unlinkSync(path);
  }
  const fd = openSync(path, 'wx');
  writeSync(fd, String(process.pid));
  closeSync(fd);
  openHere.add(path);
  return path;
}

/** A Buffer as a plain Uint8Array view (no copy). */
const asBytes = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.length);

function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try { fsyncSync(fd); } finally { closeSync(fd); }
}

/** Writes a file whole and fsyncs it. */
function writeDurably(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, 'w');
  try {
    writeWhole(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a snapshot's pieces to a new file and fsyncs it, one asynchronous
 * write per piece (the main thread is never held for the whole snapshot);
 * resolves with what the manifest says of it.
 */
async function writePieces(path: string, snapshot: SnapshotEntry, file: string): Promise<ManifestSnapshot> {
  const handle = await openFile(path, 'w');
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for await (const piece of snapshot.pieces) {
      for (let done = 0; done < piece.length;) {
        const { bytesWritten } = await handle.write(piece, done, piece.length - done);
        if (bytesWritten <= 0) throw shortWrite();
        done += bytesWritten;
      }
      hash.update(piece);
      bytes += piece.length;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  return { file, taskID: snapshot.taskID, bytes, sha256: hash.digest('hex') };
}

/** Replaces a file atomically: written whole to a temporary file, then renamed over it. */
function syncedWrite(path: string, bytes: Uint8Array | string): void {
  writeDurably(`${path}.tmp`, typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
  renameSync(`${path}.tmp`, path);
}

/** A write that wrote nothing: the disk is full (answered 507 like ENOSPC). */
const shortWrite = () => Object.assign(new Error('no space left on device (short write)'), { code: 'ENOSPC' });

/** Writes every byte: a write may be short (a full disk, a signal), and what it left out must not be skipped. */
function writeWhole(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) {
    const wrote = writeSync(fd, bytes, done, bytes.length - done);
    if (wrote <= 0) throw shortWrite();
    done += wrote;
  }
}

function readIfPresent(path: string): Buffer | undefined {
  try { return readFileSync(path); } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

interface Segment { file: string; first: number; last: number }

/** Bytes of a log file: a damaged span, or a record's frame. */
interface FileSpan { file: string; span: DamagedSpan }

/** The first and last intact record a log file holds (none: it holds no intact record). */
interface Held { first?: number; last?: number }

/** The log's files in order: closed parts by first task, then the one being appended to. */
function logFiles(dir: string): string[] {
  const closed = readdirSync(dir).filter((f) => SEGMENT.test(f)).sort();
  return existsSync(join(dir, LOG)) ? [...closed, LOG] : closed;
}

const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/**
 * A storage in a directory (Node, Electron): an append-only binary log, each
 * record with a CRC32 and fsync'd before its write is acknowledged, binary
 * snapshots proven before a `manifest.json` names them, and a `LOCK` file so
 * one process writes at a time. The directory is made if missing.
 *
 * @param dir - the directory the store lives in (`./data`).
 */
export function fsStorage(dir: string): Storage {
  mkdirSync(dir, { recursive: true });
  const lockPath = lock(dir);
  const logPath = join(dir, LOG);
  let fd: number | undefined;
  /** Bytes of log.bin that hold whole frames (durable or waiting for their fsync). */
  let logSize = 0;
  /** Bytes of log.bin that hold whole, durable frames, and the last task among them. */
  let durableSize = 0;
  let durableLast = 0;
  /** The first and last tasks log.bin holds (whole frames, durable or not). */
  let activeFirst: number | undefined;
  let activeLast = 0;
  const commits = new GroupCommit({ sync: syncLog, syncHere: syncLogHere, cutBack: cutBackToDurable });
  /** A snapshot started while frames waited for their fsync: log.bin becomes a part once they are durable. */
  let partDue = false;
  /** Appends made while log.bin waits to become a part: they are written after it, in the order they came. */
  let afterPart: Promise<void> | undefined;
  let waitingForPart = 0;
  const segments: Segment[] = [];
  let manifest: Manifest = emptyManifest();
  /** The engine accepted what open() gave it (repair ran): the manifest is this storage's to write. */
  let opened = false;
  /** Deletions still under way (close waits for them). */
  const deleting = new Set<Promise<void>>();
  /** Renames a file out of the way at once, and deletes it without holding the main thread. */
  const dropLater = (path: string) => {
    const dropped = `${path}.${process.pid}.tmp`;
    renameSync(path, dropped);
    // what is not deleted now is a leftover the next open removes
    const deleted = unlink(dropped).catch(() => {}).then(() => { deleting.delete(deleted); });
    deleting.add(deleted);
  };

  const snapshotFiles = () => readdirSync(dir).filter((f) => SNAPSHOT.test(f)).sort().reverse();

  function listSnapshots(found: Manifest | undefined): StoredSnapshot[] {
    const read = (file: string) => async () => asBytes(readFileSync(join(dir, file)));
    if (!found) {
      // a store written before manifests: its snapshot files are all there is to go by
      return snapshotFiles().map((f) => ({ taskID: Number(SNAPSHOT.exec(f)![1]), read: read(f) }));
    }
    return found.snapshots.map((listed) => ({
      taskID: listed.taskID,
      async read() {
        const bytes = readIfPresent(join(dir, listed.file));
        const problem = await snapshotProblem(listed, bytes);
        if (problem) throw new StorageError(`${join(dir, listed.file)} ${problem}`);
        return asBytes(bytes!);
      },
    }));
  }

  function readLog(damage: Damage[]): { log: Entry[]; spans: FileSpan[]; held: Map<string, Held>; frames: Map<number, FileSpan> } {
    const log: Entry[] = [];
    const spans: FileSpan[] = [];
    const held = new Map<string, Held>();
    const frames = new Map<number, FileSpan>();
    for (const file of logFiles(dir)) {
      const data = readFileSync(join(dir, file));
      const scanned = scanLog(data, log.at(-1)?.taskID ?? 0);
      held.set(file, { first: scanned.entries[0]?.taskID, last: scanned.entries.at(-1)?.taskID });
      for (const span of scanned.damaged) spans.push({ file, span });
      // a loop, not push(...): a log of a few hundred thousand records would overflow the call stack
      for (const { taskID, bytes, start, end } of scanned.entries) {
        log.push({ taskID, bytes });
        frames.set(taskID, { file, span: { start, end, after: taskID - 1, before: taskID + 1 } });
      }
      if (file === LOG) {
        logSize = scanned.damaged.find((s) => s.before === undefined)?.start ?? data.length;
        activeFirst = scanned.entries[0]?.taskID;
        activeLast = scanned.entries.at(-1)?.taskID ?? 0;
        markDurable();
      } else {
        segments.push({ file, first: Number(SEGMENT.exec(file)![1]), last: scanned.entries.at(-1)?.taskID ?? 0 });
      }
    }
    for (const [i, { file, span }] of spans.entries()) {
      // a closed part's tail is followed by the next part: only log.bin's tail can be a torn write
      const before = span.before ?? (file === LOG ? undefined : firstAfter(log, span.after));
      spans[i].span = { ...span, before };
      const bytes = span.end - span.start;
      const where = `${join(dir, file)}: ${bytes} damaged bytes at offset ${span.start}`;
      damage.push(before === undefined
        ? { what: `${where}, at the end (a write torn before it was acknowledged)`, log: { after: span.after } }
        : { what: `${where}, between tasks ${span.after} and ${before}`, log: { after: span.after, before } });
    }
    return { log, spans, held, frames };
  }

  /** damaged/, made when first needed, and a stamp that keeps what is set aside apart from earlier repairs. */
  function damagedDir(): { path: string; stamp: string } {
    mkdirSync(join(dir, DAMAGED), { recursive: true });
    return { path: join(dir, DAMAGED), stamp: new Date().toISOString().replace(/[:.]/g, '-') };
  }

  /** Copies bytes that could not be used to damaged/ (fsync'd), then rewrites their file without them; a line each. */
  function moveAside(file: string, spans: DamagedSpan[]): string[] {
    const path = join(dir, file);
    const data = readFileSync(path);
    const damaged = damagedDir();
    const kept: Buffer[] = [];
    const moved: string[] = [];
    let at = 0;
    for (const span of spans) {
      const to = join(damaged.path, `${file}.${span.start}-${span.end}.${damaged.stamp}`);
      writeDurably(to, data.subarray(span.start, span.end));
      moved.push(`${span.end - span.start} bytes of ${path} at offset ${span.start}, which could not be used, moved to ${to}`);
      kept.push(data.subarray(at, span.start));
      at = span.end;
    }
    kept.push(data.subarray(at));
    syncDirectory(damaged.path);
    syncedWrite(path, Buffer.concat(kept));
    if (file === LOG) logSize = kept.reduce((n, b) => n + b.length, 0);
    return moved;
  }

  /** After bytes of a log file were set aside: the first and last task it holds now (what the manifest will say of it). */
  function noteWhatIsLeft(file: string): void {
    const { entries } = scanLog(readFileSync(join(dir, file)), 0);
    if (file === LOG) {
      activeFirst = entries[0]?.taskID;
      activeLast = entries.at(-1)?.taskID ?? 0;
      markDurable();
      return;
    }
    const segment = segments.find((s) => s.file === file);
    if (segment) Object.assign(segment, { first: entries[0]?.taskID ?? 0, last: entries.at(-1)?.taskID ?? 0 });
  }

  /** Moves the files of snapshots that could not be used to damaged/ (a rename: nothing is copied or lost); a line each. */
  function moveSnapshotsAside(taskIDs: number[], listed: Manifest | undefined): string[] {
    const moved: string[] = [];
    for (const taskID of taskIDs) {
      const file = listed?.snapshots.find((s) => s.taskID === taskID)?.file ?? `snapshot-${padded(taskID)}.bin`;
      if (!existsSync(join(dir, file))) continue;
      const damaged = damagedDir();
      const to = join(damaged.path, `${file}.${damaged.stamp}`);
      renameSync(join(dir, file), to);
      syncDirectory(damaged.path);
      moved.push(`${join(dir, file)}, which could not be used, moved to ${to}`);
    }
    if (moved.length > 0) syncDirectory(dir);
    return moved;
  }

  /** The manifest of a store written before manifests (or a new one): the snapshot files it has. */
  async function describeLegacy(snapshots: StoredSnapshot[]): Promise<Manifest> {
    const kept = snapshots.slice(0, SNAPSHOTS_KEPT);
    const described = await Promise.all(kept.map(async (s) => describeSnapshot(`snapshot-${padded(s.taskID)}.bin`, s.taskID, await s.read())));
    return { ...emptyManifest(), snapshots: described };
  }

  function writeManifest(next: Manifest): void {
    syncedWrite(join(dir, MANIFEST), `${JSON.stringify(next, null, 1)}\n`);
    syncDirectory(dir);
    manifest = next;
  }

  /**
   * Names a proven snapshot in the manifest, with the one before it and the
   * log parts after that one; then deletes what is no longer named. A crash in
   * between leaves files the manifest does not name, which the next open removes.
   */
  function standOn(snapshot: ManifestSnapshot): void {
    const previous = manifest.snapshots.filter((s) => s.taskID < snapshot.taskID).slice(0, SNAPSHOTS_KEPT - 1);
    const snapshots = [snapshot, ...previous];
    const oldestKept = snapshots.at(-1)!.taskID;
    const [dropped, kept] = [segments.filter((s) => s.last <= oldestKept), segments.filter((s) => s.last > oldestKept)];
    writeManifest({ ...manifest, snapshots, logParts: kept });
    // superseded snapshots and log parts are renamed at once and deleted in the background: freeing
    // hundreds of megabytes can take longer than a search may wait (a leftover .tmp is removed at the next open)
    for (const f of snapshotFiles()) if (!snapshots.some((s) => s.file === f)) dropLater(join(dir, f));
    for (const segment of dropped) dropLater(join(dir, segment.file));
    segments.splice(0, segments.length, ...kept);
    syncDirectory(dir);
  }

  return {
    async open(): Promise<StoredState> {
      const damage: Damage[] = [];
      const read = readManifest(dir);
      const found = read.manifest;
      // without its manifest, the files are all there is to go by: only a repair may trust them
      if (read.manifest === undefined && read.problem) damage.push({ what: read.problem, unknownLoss: true });
      const snapshots = listSnapshots(found);
      const { log, spans, held, frames } = readLog(damage);
      if (found) damage.push(...missingLog(dir, found, held, log));
      // a log that does not start at the first write was cut after a snapshot (even one a repair since set aside)
      const needsSnapshot = snapshots.length > 0 || (log.length > 0 && log[0].taskID !== 1);
      const leftovers = [
        ...readdirSync(dir).filter((f) => f.endsWith('.tmp')),
        ...(found ? snapshotFiles().filter((f) => !found.snapshots.some((s) => s.file === f)) : []),
      ];
      const repair = async (unusable: Unusable) => {
        const setAside: string[] = [];
        // damaged bytes, and the frames of records that are intact but unreadable (they do not decrypt or parse)
        const aside = [...spans, ...unusable.logRecords.flatMap((taskID) => frames.get(taskID) ?? [])];
        for (const file of new Set(aside.map((s) => s.file))) {
          setAside.push(...moveAside(file, aside.filter((s) => s.file === file).map((s) => s.span).sort((a, b) => a.start - b.start)));
          noteWhatIsLeft(file);
        }
        setAside.push(...moveSnapshotsAside(unusable.snapshots, found));
        for (const f of leftovers) unlinkSync(join(dir, f));
        // a new store, or one written before manifests: from now on the manifest says what it stands on
        const usable = snapshots.filter((s) => !unusable.snapshots.includes(s.taskID));
        const standsOn = found ? { ...found, snapshots: found.snapshots.filter((s) => !unusable.snapshots.includes(s.taskID)) } : await describeLegacy(usable);
        // the log as it is now: what the repair found missing is no longer expected, and the open part's end
        // is unknown until the store is closed again (see Manifest.openPart)
        opened = true;
        const next: Manifest = { ...standsOn, logParts: segments.filter((s) => s.last > 0), openPart: activeFirst === undefined ? undefined : { first: activeFirst } };
        if (JSON.stringify(next) !== JSON.stringify(found)) writeManifest(next);
        else manifest = next;
        return setAside;
      };
      return { snapshots, log, damage, needsSnapshot, repair };
    },

    appendsInCallOrder: true,

    append(entry, options) {
      const here = options?.atOnce === true;
      if (!partDue && afterPart === undefined) return appendNow(entry, here);
      // log.bin becomes a part once what it holds is durable; this record goes after, in its turn
      afterPart ??= commits.settled().then(closePartLate);
      waitingForPart++;
      return afterPart.then(() => {
        if (--waitingForPart === 0) afterPart = undefined;
        return appendNow(entry, here);
      });
    },

    snapshotStarted() {
      if (!commits.busy) return closePart();
      // closing log.bin's descriptor under its fsync would lose the fsync: it becomes a part once idle
      partDue = true;
      void commits.settled().then(closePartLate);
    },

    async writeSnapshot(snapshot, prove) {
      // proven under a temporary name: an unproven snapshot never looks like one the store stands on
      const file = `snapshot-${padded(snapshot.taskID)}.bin`;
      const unproven = join(dir, `${file}.tmp`);
      let described: ManifestSnapshot;
      try {
        described = await writePieces(unproven, snapshot, file);
        await prove({ taskID: snapshot.taskID, file: unproven, bytes: described.bytes, read: async () => asBytes(await readFile(unproven)) });
      } catch (e) {
        rmSync(unproven, { force: true });
        throw e;
      }
      // from the rename to the deletions, nothing awaits: no snapshot too many is ever seen
      renameSync(unproven, join(dir, file));
      syncDirectory(dir);
      standOn(described);
    },

    async close() {
      await afterPart;
      await commits.settled();
      await Promise.all(deleting);
      // a clean close: the open part's end is known, so a cut is told from a torn write at the next open
      try {
        if (opened && activeFirst !== undefined) writeManifest({ ...manifest, openPart: { first: activeFirst, end: { last: activeLast, bytes: logSize } } });
      } catch {
        // the manifest as it was: the next open reads the log as after a crash (a cut tail taken for a torn write)
      }
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      if (existsSync(lockPath)) unlinkSync(lockPath);
      openHere.delete(lockPath);
    },
  };

  /** Writes a record's frame to log.bin at once; resolves once it is durable (see GroupCommit; `here`: its `written`). */
  function appendNow(entry: Entry, here: boolean): Promise<void> {
    const bytes = frame(entry);
    try {
      fd ??= openSync(logPath, 'a');
      writeWhole(fd, bytes);
    } catch (e) {
      return Promise.reject(rollBack(e as NodeJS.ErrnoException, logSize));
    }
    logSize += bytes.length;
    activeFirst ??= entry.taskID;
    activeLast = entry.taskID;
    return commits.written(here);
  }

  /** What log.bin holds is durable as it is (read at open, or rewritten whole). */
  function markDurable(): void {
    durableSize = logSize;
    durableLast = activeLast;
  }

  /** Makes the frames written so far durable (GroupCommit's fsync, on the thread pool). */
  async function syncLog(): Promise<void> {
    const [size, last] = [logSize, activeLast];
    await fsyncOffThread(fd!);
    markSynced(size, last);
  }

  /** Makes the frames written so far durable on this thread. */
  function syncLogHere(): void {
    fsyncSync(fd!);
    markSynced(logSize, activeLast);
  }

  /** log.bin is durable up to `size` bytes, task `last`; the manifest names it once its first frames are. */
  function markSynced(size: number, last: number): void {
    // the part's first records are durable: the manifest says the part exists before they are acknowledged
    if (durableSize === 0) writeManifest({ ...manifest, openPart: { first: activeFirst! } });
    [durableSize, durableLast] = [size, last];
  }

  /** After a failed fsync: log.bin cut back to its durable frames (see GroupCommit); the error to answer with. */
  function cutBackToDurable(e: unknown): StorageError {
    const error = rollBack(e as NodeJS.ErrnoException, durableSize);
    logSize = durableSize;
    activeLast = durableLast;
    if (durableSize === 0) activeFirst = undefined;
    return error;
  }

  /** Closes log.bin as a part of its own (a snapshot started): records appended from now on start a new one. */
  function closePart(): void {
    partDue = false;
    if (activeFirst === undefined) return;
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    const file = `log-${padded(activeFirst)}.bin`;
    renameSync(logPath, join(dir, file));
    // log.bin is a part from here on, whatever fails after: the state says so at once
    segments.push({ file, first: activeFirst, last: activeLast });
    logSize = 0;
    durableSize = 0;
    activeFirst = undefined;
    syncDirectory(dir);
    writeManifest({ ...manifest, logParts: [...segments], openPart: undefined });
  }

  /**
   * closePart, once the frames that waited for their fsync when the
   * snapshot started are durable. Should it fail, log.bin stays whole, the
   * records the snapshot holds included: they are kept longer, nothing is
   * lost.
   */
  function closePartLate(): void {
    if (!partDue) return;
    try {
      closePart();
    } catch (e) {
      console.error(`lantern: the log could not be split where a snapshot started (${(e as Error).message}); it is kept whole`);
    }
  }

  /** Cuts log.bin back to `size` bytes (its last whole, or durable, frame) after a failed write; the error to answer with. */
  function rollBack(e: NodeJS.ErrnoException, size: number): StorageError {
    let restored = true;
    try {
      if (fd !== undefined) { ftruncateSync(fd, size); fsyncSync(fd); }
    } catch {
      restored = false;
    }
    const diskFull = DISK_FULL.has(e.code ?? '');
    const reason = diskFull ? 'the disk is full' : `the log could not be written (${e.code ?? e.message})`;
    return new StorageWriteError(
      `${reason}: the write was not stored${restored ? '' : `, and ${logPath} could not be cut back to its last whole record`}`,
      diskFull,
    );
  }
}

/**
 * The log parts the manifest lists that are missing or cut (they do not hold
 * the first and last task it says), and the open part when no file holds its
 * first record: what they held is lost, unless a snapshot loaded holds it.
 */
function missingLog(dir: string, manifest: Manifest, held: Map<string, Held>, log: Entry[]): Damage[] {
  const damage: Damage[] = [];
  for (const part of manifest.logParts ?? []) {
    const path = join(dir, part.file);
    const found = held.get(part.file);
    if (!found) damage.push({ what: `${path} is missing (it held tasks ${part.first} to ${part.last})`, log: { after: part.first - 1, before: part.last + 1 } });
    else if (found.last === undefined) damage.push({ what: `${path} holds none of tasks ${part.first} to ${part.last}`, log: { after: part.first - 1, before: part.last + 1 } });
    else if (found.last < part.last) damage.push({ what: `${path} is cut: it ends at task ${found.last}, where it held tasks up to ${part.last}`, log: { after: found.last, before: part.last + 1 } });
    else if (found.first! > part.first) damage.push({ what: `${path} is cut: it starts at task ${found.first}, where it held tasks from ${part.first}`, log: { after: part.first - 1, before: found.first! } });
  }
  const open = manifest.openPart;
  const last = held.get(LOG)?.last;
  if (open && !log.some((e) => e.taskID >= open.first)) {
    const what = held.has(LOG) ? 'holds none of the writes' : 'is missing: the writes it held';
    damage.push({ what: `${join(dir, LOG)} ${what} from task ${open.first} on (they are lost)`, unknownLoss: true });
  } else if (open?.end && last !== undefined && last < open.end.last) {
    const what = `${join(dir, LOG)} is cut: it ends at task ${last}, where it held tasks up to ${open.end.last} when the store was closed`;
    damage.push({ what, log: { after: last, before: open.end.last + 1 } });
  }
  return damage;
}

/** The first intact record's taskID after `after`. */
function firstAfter(log: Entry[], after: number): number | undefined {
  return log.find((e) => e.taskID > after)?.taskID;
}
