// `lantern serve` (dist/cli.js) as a child process, for the tests that talk
// to it over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'dist', 'cli.js');

export interface Served {
  /** The API's URL, from the "listening on" line. */
  url: string;
  /** Everything printed so far. */
  output: () => string;
  /** SIGTERM; resolves with the exit code. */
  stop: () => Promise<number | null>;
  /** SIGKILL (kill -9: no shutdown at all); resolves once it exited. */
  kill: () => Promise<void>;
  /** SIGSTOP: the process stays, frozen (a node away from everything), until `resume`. */
  pause: () => void;
  /** SIGCONT after `pause`. */
  resume: () => void;
}

/** Starts `lantern serve` on a free port with `args` (and `env` added to this process's); resolves once it listens (within `ms`). */
export async function startServe(args: string[], env: Record<string, string> = {}, ms = 15_000): Promise<Served> {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build`');
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => { stderr += d; });
  const stop = () => new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
  const kill = () => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" line\n${stdout}\n${stderr}`)), ms);
    child.stdout!.on('data', (d) => {
      stdout += d;
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`serve exited with ${code}\n${stderr}`)); });
  });
  return { url, output: () => stdout + stderr, stop, kill, pause: () => child.kill('SIGSTOP'), resume: () => child.kill('SIGCONT') };
}
