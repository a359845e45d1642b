// The manifest of a data directory (manifest.json) ties its files together:
// which snapshots the store stands on, newest first, with each file's size
// and SHA-256. It is replaced atomically once a new snapshot is proven and
// before anything it supersedes is deleted, so a store whose snapshots were
// deleted, swapped or damaged is told apart from one that never had them.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StorageError } from './errors.js';

export const MANIFEST = 'manifest.json';
const FORMAT = 1;

export interface ManifestSnapshot {
  file: string;
  taskID: number;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  /** Newest first. */
  snapshots: ManifestSnapshot[];
}

export const emptyManifest = (): Manifest => ({ format: FORMAT, snapshots: [] });

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function describeSnapshot(file: string, taskID: number, bytes: Uint8Array): ManifestSnapshot {
  return { file, taskID, bytes: bytes.length, sha256: sha256(bytes) };
}

/** The directory's manifest; undefined when it has none (a new store, or one written before manifests). */
export function readManifest(dir: string): Manifest | undefined {
  const path = join(dir, MANIFEST);
  if (!existsSync(path)) return undefined;
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new StorageError(`${path} is not valid JSON (${(e as Error).message}): restore it from a backup, or run \`lantern repair\``);
  }
  if (manifest?.format !== FORMAT || !Array.isArray(manifest.snapshots)) {
    throw new StorageError(`${path} is not a manifest this version reads (format ${String(manifest?.format)})`);
  }
  return manifest;
}

/** Why a file the manifest lists cannot be used as it is, or undefined when it is the file written. */
export function snapshotProblem(listed: ManifestSnapshot, bytes: Uint8Array | undefined): string | undefined {
  if (bytes === undefined) return `snapshot ${listed.file} is missing`;
  if (bytes.length !== listed.bytes) return `snapshot ${listed.file} has ${bytes.length} bytes, ${listed.bytes} were written`;
  if (sha256(bytes) !== listed.sha256) return `snapshot ${listed.file} is not the file written (its SHA-256 differs)`;
  return undefined;
}
