// The package as a user installs it: `npm pack` of the dist/ that `npm test`
// builds first, unpacked into a project's node_modules, next to links to the
// registry packages it needs from this repository's node_modules (no
// network). Packed once per test process.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Packed { tarball: string; filename: string; unpackedSize: number; files: Array<{ path: string }> }

let packed: Packed | undefined;

export function pack(): Packed {
  if (packed) return packed;
  const dir = mkdtempSync(join(tmpdir(), 'lantern-pack-'));
  const [info] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' }));
  packed = { ...info, tarball: join(dir, info.filename) };
  return packed!;
}

/** Installs the packed package into `project`/node_modules, with links to `dependencies` (registry packages) from this repository. */
export function installPacked(project: string, dependencies: string[]): void {
  const installed = join(project, 'node_modules', 'lantern-search');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', pack().tarball, '-C', installed, '--strip-components=1']);
  for (const dependency of dependencies) {
    const link = join(project, 'node_modules', dependency);
    mkdirSync(join(link, '..'), { recursive: true });
    if (!existsSync(link)) symlinkSync(join(ROOT, 'node_modules', dependency), link);
  }
}
