// The manifest of a data directory (manifest.json) ties its files together:
// which snapshots the store stands on, newest first, with each file's size
// and SHA-256; which closed parts of the log it needs, with the first and
// last task each holds; and the task the part being appended to starts at.
// It is replaced atomically when a part of the log is opened or closed, and
// once a new snapshot is proven and before anything it supersedes is
// deleted, so a store whose snapshots or log parts were deleted, cut,
// swapped or damaged is told apart from one that never had them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StoreFormatError } from './errors.js';

export const MANIFEST = 'manifest.json';
/** The format of the manifests this code writes; a newer one is refused (StoreFormatError). */
export const MANIFEST_FORMAT = 1;

export interface ManifestSnapshot {
  file: string;
  taskID: number;
  bytes: number;
  sha256: string;
}

/** A closed part of the log the store needs. */
export interface ManifestLogPart {
  file: string;
  first: number;
  last: number;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  /** Newest first. */
  snapshots: ManifestSnapshot[];
  /** Oldest first; absent in a manifest written before any part was closed. */
  logParts?: ManifestLogPart[];
  /**
   * The part of the log being appended to (log.bin) holds the tasks from
   * `first` on. Written once the part's first record is durable and before
   * it is acknowledged; absent while no write followed the last closed part.
   * Its end changes with every write: it is written (`end`) only when the
   * store is closed, and taken out when it is opened again, so a log cut
   * after a clean close is told from a write torn by a crash.
   */
  openPart?: { first: number; end?: { last: number; bytes: number } };
}

export const emptyManifest = (): Manifest => ({ format: MANIFEST_FORMAT, snapshots: [], logParts: [] });

/** Hex SHA-256, hashed off the main thread (WebCrypto): a snapshot may be hundreds of megabytes. */
export async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function describeSnapshot(file: string, taskID: number, bytes: Uint8Array): Promise<ManifestSnapshot> {
  return { file, taskID, bytes: bytes.length, sha256: await sha256(bytes) };
}

export type ManifestRead = { manifest: Manifest } | { manifest: undefined; problem?: string };

/** The directory's manifest; none for a new store or one written before manifests, or why it cannot be read. */
export function readManifest(dir: string): ManifestRead {
  const path = join(dir, MANIFEST);
  if (!existsSync(path)) return { manifest: undefined };
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  } catch (e) {
    return { manifest: undefined, problem: `${path} is unreadable (${(e as Error).message})` };
  }
  // a newer Lantern's store: not damage (a repair would write over it), refused as it is
  if (typeof manifest?.format === 'number' && manifest.format > MANIFEST_FORMAT) {
    throw new StoreFormatError(
      `${path} is of manifest format ${manifest.format}, newer than this Lantern reads (format ${MANIFEST_FORMAT}): open the store with the newer version that wrote it`,
    );
  }
  if (manifest?.format === MANIFEST_FORMAT && Array.isArray(manifest.snapshots)) return { manifest };
  return { manifest: undefined, problem: `${path} is not a manifest this version reads` };
}

/** Why a file the manifest lists cannot be used as it is ("is missing", ...), or undefined when it is the file written. */
export async function snapshotProblem(listed: ManifestSnapshot, bytes: Uint8Array | undefined): Promise<string | undefined> {
  if (bytes === undefined) return 'is missing';
  if (bytes.length !== listed.bytes) return `has ${bytes.length} bytes where ${listed.bytes} were written`;
  if (await sha256(bytes) !== listed.sha256) return 'is not the file written (its SHA-256 differs)';
  return undefined;
}
