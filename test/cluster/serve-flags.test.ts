// `lantern serve --nats` told something it cannot do: one line saying what
// and how to do it instead, never a stack trace (exit code 2 for the
// command line, 1 for a NATS that cannot hold the data).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../support/serve.js';
import { freePort, natsServerFor, startNats, type NatsGroup } from '../support/nats.js';

const run = natsServerFor('serve-flags.test.ts');

/** `lantern serve` with `args`: its exit code and what it printed on stderr. */
function serve(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`serve ${args.join(' ')} did not stop\n${stderr}`)); }, 20_000);
    child.once('close', (code) => { clearTimeout(timer); resolve({ code, stderr }); });
  });
}

let nats: NatsGroup;
beforeAll(async () => { if (run) nats = await startNats(1); });
afterAll(async () => { await nats?.close(); });

describe('lantern serve --nats, told what it cannot do', () => {
  it('command-line mistakes: one line with a hint, exit code 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--nats', 'nats://127.0.0.1:4222'], /--nats needs --app-id/],
      [['--nats', 'nats://127.0.0.1:4222', '--app-id', 'A', '--data', 'somewhere'], /leave out --data/],
      [['--nats', 'nats://127.0.0.1:4222', '--app-id', 'A', '--nats-replicas', 'seven'], /--nats-replicas needs a whole number from 1 to 5, not "seven"/],
      [['--app-id', 'A', '--nats-replicas', '3'], /--nats-replicas goes with --nats/],
      [['--nats', 'nats://127.0.0.1:4222', '--app-id', 'A', '--clusters', 'c1,c2'], /--clusters names the one cluster this node serves/],
      [['--app-id', 'A', '--advertise', 'http://10.0.0.1:7700'], /--advertise goes with --nats/],
      [['--nats', 'nats://127.0.0.1:4222', '--app-id', 'A', '--advertise', 'http://10.0.0.1:7700'], /--advertise goes with --nats and --clusters NAME/],
      [['--nats', 'nats://127.0.0.1:4222', '--app-id', 'A', '--clusters', 'c1', '--advertise', 'nowhere'], /--advertise needs a URL/],
      [['--nats', 'nats://127.0.0.1:4222', '--app-id', 'A', '--clusters', 'c1', '--host', '0.0.0.0'], /pass --advertise http:\/\/THIS-HOST:PORT/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await serve(args);
      expect([code, stderr.trim().split('\n').length], stderr).toEqual([2, 1]);
      expect(stderr).toMatch(message);
    }
  });

  it('no NATS at the address: one line naming it, exit code 1', async () => {
    const url = `nats://127.0.0.1:${await freePort()}`;
    const { code, stderr } = await serve(['--nats', url, '--app-id', 'A']);
    expect([code, stderr.trim().split('\n').length], stderr).toEqual([1, 1]);
    expect(stderr).toContain(`cannot connect to NATS at ${url}`);
  });

  it.skipIf(!run)('a NATS without JetStream: one line saying to start it with -js, without waiting for it', async () => {
    const plain = await startNats(1, { jetstream: false });
    try {
      // serve() gives up after 20 s: JetStream's patience (30 s) must not apply to a server that has none
      const { code, stderr } = await serve(['--nats', plain.urls, '--app-id', 'A']);
      expect([code, stderr.trim().split('\n').length], stderr).toEqual([1, 1]);
      expect(stderr).toContain(`start the NATS server at ${plain.urls} with -js`);
    } finally {
      await plain.close();
    }
  });

  it.skipIf(!run)('more copies than the NATS servers can keep: one line saying what it needs', async () => {
    const { code, stderr } = await serve(['--nats', nats.urls, '--app-id', 'A', '--nats-replicas', '3']);
    expect([code, stderr.trim().split('\n').length], stderr).toEqual([1, 1]);
    expect(stderr).toMatch(/--nats-replicas 3 needs a JetStream cluster of 3 servers/);
  });
});
