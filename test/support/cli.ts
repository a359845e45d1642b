// The `lantern` command (dist/cli.js) as a child process: run to its end,
// with what it printed.
import { spawn } from 'node:child_process';
import { CLI, ROOT } from './serve.js';

export interface Run { code: number | null; stdout: string; stderr: string }

export interface RunOptions { cwd?: string; env?: Record<string, string>; timeoutMs?: number }

/** Runs `lantern ARGS` (in the repository, unless `cwd`); rejects when it takes longer than `timeoutMs`. */
export function runLantern(args: string[], { cwd = ROOT, env = {}, timeoutMs = 20_000 }: RunOptions = {}): Promise<Run> {
  return collect(spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env } }), `lantern ${args.join(' ')}`, timeoutMs);
}

/** Runs a command line as printed by lantern ("lantern import ..."), through the shell, as a user would paste it. */
export function runPrinted(commandLine: string, { cwd = ROOT, env = {}, timeoutMs = 20_000 }: RunOptions = {}): Promise<Run> {
  if (!commandLine.startsWith('lantern ')) throw new Error(`not a lantern command: ${commandLine}`);
  const command = `"${process.execPath}" "${CLI}" ${commandLine.slice('lantern '.length)}`;
  return collect(spawn('/bin/sh', ['-c', command], { cwd, env: { ...process.env, ...env } }), commandLine, timeoutMs);
}

function collect(child: ReturnType<typeof spawn>, what: string, timeoutMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => { stdout += d; });
    child.stderr!.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${what} timed out\n${stderr}`)); }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}
