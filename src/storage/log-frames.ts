// The binary log's frames: u32 payload length, u32 CRC-32 of (taskID +
// payload), f64 taskID, payload. Reading a log keeps every intact frame: a
// damaged one is skipped and reading resynchronises at the next offset where
// an intact frame starts, so one flipped byte costs one record, not the rest
// of the log. What cannot be resynchronised is the log's tail (a torn write).
import { crc32 } from 'node:zlib';
import type { Entry } from './storage.js';

export const FRAME_HEADER = 16;

export function frame(entry: Entry): Buffer {
  // every byte is written below: no zero fill
  const out = Buffer.allocUnsafe(FRAME_HEADER + entry.bytes.length);
  out.writeDoubleLE(entry.taskID, 8);
  out.set(entry.bytes, FRAME_HEADER);
  out.writeUInt32LE(entry.bytes.length, 0);
  out.writeUInt32LE(crc32(out.subarray(8)), 4);
  return out;
}

/** Bytes of a log that held no intact frame. */
export interface DamagedSpan {
  start: number;
  end: number;
  /** taskID of the intact frame before it (0 when there is none). */
  after: number;
  /** taskID of the intact frame after it; absent when the span is the log's tail. */
  before?: number;
}

export interface ScannedLog {
  entries: Array<Entry & { start: number; end: number }>;
  damaged: DamagedSpan[];
}

/** End of the intact frame at `at` whose taskID is above `after`, or -1. */
function intactFrameEnd(data: Buffer, at: number, after: number): number {
  if (at + FRAME_HEADER > data.length) return -1;
  const end = at + FRAME_HEADER + data.readUInt32LE(at);
  if (end > data.length) return -1;
  const taskID = data.readDoubleLE(at + 8);
  // a plausible taskID before the CRC, which costs the whole frame
  if (!Number.isSafeInteger(taskID) || taskID <= after) return -1;
  return crc32(data.subarray(at + 8, end)) === data.readUInt32LE(at + 4) ? end : -1;
}

/** The frames of one log file whose records follow task `after`. */
export function scanLog(data: Buffer, after = 0): ScannedLog {
  const entries: ScannedLog['entries'] = [];
  const damaged: DamagedSpan[] = [];
  let at = 0;
  let last = after;
  while (at < data.length) {
    const end = intactFrameEnd(data, at, last);
    if (end >= 0) {
      const taskID = data.readDoubleLE(at + 8);
      entries.push({ taskID, bytes: new Uint8Array(data.subarray(at + FRAME_HEADER, end)), start: at, end });
      last = taskID;
      at = end;
      continue;
    }
    let next = at + 1;
    while (next < data.length && intactFrameEnd(data, next, last) < 0) next++;
    damaged.push(next < data.length
      ? { start: at, end: next, after: last, before: data.readDoubleLE(next + 8) }
      : { start: at, end: data.length, after: last });
    at = next;
  }
  return { entries, damaged };
}
