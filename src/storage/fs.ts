// File system storage: an append-only log, one operation per line with a
// CRC32, fsync'd before the write is acknowledged; a lock file keeps a
// second process from writing to the same directory.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, truncateSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { LoggedOperation, Storage } from './storage.js';

const LOG = 'operations.log';
const LOCK = 'LOCK';

/** Directories this process holds open for writing. */
const openHere = new Set<string>();

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

function isAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

function line(op: LoggedOperation): string {
  const json = JSON.stringify(op);
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

export function fsStorage(dir: string): Storage {
  mkdirSync(dir, { recursive: true });
  const lockPath = lock(dir);
  const logPath = join(dir, LOG);
  let fd: number | undefined;

  return {
    async load() {
      if (!existsSync(logPath)) return [];
      const text = readFileSync(logPath, 'utf8');
      const ops: LoggedOperation[] = [];
      let validBytes = 0;
      const lines = text.split('\n');
      lines.pop(); // what follows the last newline is a torn record (or nothing)
      for (const entry of lines) {
        const json = entry.slice(9);
        if (entry[8] !== ' ' || crc32(json).toString(16).padStart(8, '0') !== entry.slice(0, 8)) {
          console.warn(`lantern: ${logPath}: torn or corrupt record after ${ops.length} operations, truncated`);
          break;
        }
        ops.push(JSON.parse(json));
        validBytes += Buffer.byteLength(entry) + 1;
      }
      if (validBytes < Buffer.byteLength(text)) truncateSync(logPath, validBytes);
      return ops;
    },
    async append(op) {
      fd ??= openSync(logPath, 'a');
      writeSync(fd, line(op));
      fsyncSync(fd);
    },
    async close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      if (existsSync(lockPath)) unlinkSync(lockPath);
      openHere.delete(lockPath);
    },
  };
}
