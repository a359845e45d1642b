// What `npm pack` puts in the package: its license and changelog beside the
// README (issue #19 asks for more: declaration files, no sources, < 2 MB).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);

describe('the packed package', () => {
  it('holds the license its manifest names, the changelog and the README', () => {
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }));
    const paths = (packed.files as Array<{ path: string }>).map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['LICENSE', 'CHANGELOG.md', 'README.md']));
    const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(new URL('LICENSE', root), 'utf8')).toMatch(/^MIT License/);
  }, 60_000);
});
