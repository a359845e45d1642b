// A bench script run again in a process of its own: a fresh heap, nothing
// that ran before in this process moving its figures (bench/shapes.mjs, a
// process a records set; bench/first-sight-ab.mjs --processes).
import { spawn } from 'node:child_process';

/**
 * What `script` prints when run with `args` in a process of its own, with
 * this process's Node options (its heap size among them); throws, naming
 * `what`, when it exits otherwise than with 0.
 * @param {string} script a file path
 * @param {string[]} args
 * @param {string} what the process, in words
 * @returns {Promise<string>}
 */
export async function outputInOwnProcess(script, args, what) {
  const child = spawn(process.execPath, [...process.execArgv, script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => { out += chunk; });
  // 'close', not 'exit': the child's output is all read by then
  const code = await new Promise((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`${what} exited with ${code}`);
  return out;
}
