// File system storage: an append-only binary log (length, CRC32, taskID,
// payload per record) fsync'd before a write is acknowledged; snapshots
// written to a temporary file, fsync'd and renamed into place; a lock file
// keeps a second writer (another process, or another engine in this one) out.
import {
  closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, truncateSync, unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { SNAPSHOTS_KEPT, type Entry, type Storage } from './storage.js';

const LOG = 'log.bin';
const LOCK = 'LOCK';
const HEADER = 16; // u32 payload length, u32 crc32 (taskID + payload), f64 taskID
const SNAPSHOT = /^snapshot-(\d{16})\.bin$/;

/** Directories this process holds open for writing. */
const openHere = new Set<string>();

function isAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

function lock(dir: string): string {
  const path = join(dir, LOCK);
  if (openHere.has(path)) throw new Error(`${dir} is already opened for writing by this process`);
  if (existsSync(path)) {
    const pid = Number(readFileSync(path, 'utf8'));
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new Error(`${dir} is already opened for writing by process ${pid}`);
    }
    unlinkSync(path);
  }
  const fd = openSync(path, 'wx');
  writeSync(fd, String(process.pid));
  closeSync(fd);
  openHere.add(path);
  return path;
}

function frame(entry: Entry): Buffer {
  const out = Buffer.alloc(HEADER + entry.bytes.length);
  out.writeDoubleLE(entry.taskID, 8);
  out.set(entry.bytes, HEADER);
  out.writeUInt32LE(entry.bytes.length, 0);
  out.writeUInt32LE(crc32(out.subarray(8)), 4);
  return out;
}

/** Records of a log file, and the byte length of its valid prefix. */
function readLog(data: Buffer): { entries: Entry[]; valid: number } {
  const entries: Entry[] = [];
  let at = 0;
  while (at + HEADER <= data.length) {
    const length = data.readUInt32LE(at);
    const end = at + HEADER + length;
    if (end > data.length || crc32(data.subarray(at + 8, end)) !== data.readUInt32LE(at + 4)) break;
    entries.push({ taskID: data.readDoubleLE(at + 8), bytes: new Uint8Array(data.subarray(at + HEADER, end)) });
    at = end;
  }
  return { entries, valid: at };
}

/** A Buffer as a plain Uint8Array view (no copy). */
const asBytes = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.length);

function syncedWrite(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w');
  writeSync(fd, bytes);
  fsyncSync(fd);
  closeSync(fd);
  renameSync(tmp, path);
}

function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try { fsyncSync(fd); } finally { closeSync(fd); }
}

export function fsStorage(dir: string): Storage {
  mkdirSync(dir, { recursive: true });
  const lockPath = lock(dir);
  const logPath = join(dir, LOG);
  let fd: number | undefined;

  const snapshotFiles = () => readdirSync(dir).filter((f) => SNAPSHOT.test(f)).sort().reverse();

  return {
    async open() {
      const snapshots = snapshotFiles().map((f) => ({
        taskID: Number(SNAPSHOT.exec(f)![1]),
        bytes: asBytes(readFileSync(join(dir, f))),
      }));
      // a crash inside writeSnapshot can leave a temporary file or one snapshot too many
      const leftovers = [
        ...readdirSync(dir).filter((f) => f.endsWith('.tmp')),
        ...snapshotFiles().slice(SNAPSHOTS_KEPT),
      ];
      const data = existsSync(logPath) ? readFileSync(logPath) : Buffer.alloc(0);
      const { entries, valid } = readLog(data);
      if (valid < data.length) {
        console.warn(`lantern: ${logPath}: torn or corrupt record after ${entries.length} records (${data.length - valid} bytes), truncated`);
      }
      const repair = async () => {
        if (valid < data.length) truncateSync(logPath, valid);
        for (const f of leftovers) unlinkSync(join(dir, f));
      };
      return { snapshots, log: entries, repair };
    },

    async append(entry) {
      fd ??= openSync(logPath, 'a');
      writeSync(fd, frame(entry));
      fsyncSync(fd);
    },

    async writeSnapshot(snapshot) {
      syncedWrite(join(dir, `snapshot-${String(snapshot.taskID).padStart(16, '0')}.bin`), snapshot.bytes);
      const kept = snapshotFiles();
      for (const f of kept.slice(SNAPSHOTS_KEPT)) unlinkSync(join(dir, f));
      const oldestKept = Number(SNAPSHOT.exec(kept[Math.min(kept.length, SNAPSHOTS_KEPT) - 1])![1]);
      if (existsSync(logPath)) {
        const { entries } = readLog(readFileSync(logPath));
        const rest = entries.filter((e) => e.taskID > oldestKept);
        if (fd !== undefined) { closeSync(fd); fd = undefined; }
        syncedWrite(logPath, Buffer.concat(rest.map(frame)));
      }
      syncDirectory(dir);
    },

    async close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      if (existsSync(lockPath)) unlinkSync(lockPath);
      openHere.delete(lockPath);
    },
  };
}

