// nats-server processes for the cluster tests: NATS_SERVER, else Debian's
// /usr/sbin/nats-server (or one on the PATH). One server, or a JetStream
// cluster of several routed on loopback, each on free ports with a store of
// its own in a temporary directory, and stopped, killed (SIGKILL) and
// started again on the same ports and store. Without nats-server, a
// developer's run skips the cluster tests with a warning and a CI run (CI
// set) fails, as the browser tests do without Chromium (chromium.ts).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function findNatsServer(): string | undefined {
  if (process.env.NATS_SERVER) return process.env.NATS_SERVER;
  if (existsSync('/usr/sbin/nats-server')) return '/usr/sbin/nats-server';
  try {
    return execFileSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

export const NATS_SERVER = findNatsServer();

/** Whether `file`'s cluster tests can run; throws under CI when they cannot. */
export function natsServerFor(file: string): boolean {
  if (NATS_SERVER && existsSync(NATS_SERVER)) return true;
  const missing = `${file}: no nats-server (apt-get install nats-server, or set NATS_SERVER)`;
  if (process.env.CI) throw new Error(`${missing}; CI runs every cluster test`);
  console.warn(`${missing}; its cluster tests are skipped`);
  return false;
}

export interface NatsServer {
  /** The client URL (nats://127.0.0.1:PORT). */
  url: string;
  /** SIGTERM; resolves once it exited. */
  stop(): Promise<void>;
  /** SIGKILL (kill -9); resolves once it exited. */
  kill(): Promise<void>;
  /** Starts it again, on the same ports and store; resolves once JetStream answers. */
  start(): Promise<void>;
  /** What it printed since it last started (its log, for a failing test's message). */
  output(): string;
}

export interface NatsGroup {
  servers: NatsServer[];
  /** Every client URL, comma-separated (what `--nats` takes). */
  urls: string;
  /** Stops every server and removes their stores. */
  close(): Promise<void>;
}

/** A free TCP port on loopback (nothing listens on it once this resolves). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface NatsOptions {
  /** The largest message a client may publish (default 8MB: batches of a few thousand records fit in one). */
  maxPayload?: string;
  /** Whether the servers run JetStream (default true; false: a NATS that cannot hold an application's data). */
  jetstream?: boolean;
}

/**
 * Starts `count` nats-server processes with JetStream (unless told not
 * to): one alone, or a cluster of `count` routed to each other. Resolves
 * once JetStream answers on every one (a cluster has elected its meta
 * leader).
 */
export async function startNats(count = 1, { maxPayload = '8MB', jetstream = true }: NatsOptions = {}): Promise<NatsGroup> {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-nats-'));
  const ports = await Promise.all(Array.from({ length: count }, async () => ({ client: await freePort(), route: await freePort(), http: await freePort() })));
  const servers = ports.map((port, i) => {
    const routes = ports.filter((_, j) => j !== i).map((p) => `"nats-route://127.0.0.1:${p.route}"`);
    const config = join(dir, `n${i + 1}.conf`);
    writeFileSync(config, [
      `server_name: n${i + 1}`,
      `listen: "127.0.0.1:${port.client}"`,
      `http: "127.0.0.1:${port.http}"`,
      `max_payload: ${maxPayload}`,
      ...(jetstream ? [`jetstream { store_dir: "${join(dir, `store-${i + 1}`)}" }`] : []),
      ...(count > 1 ? [`cluster { name: "lantern-test", listen: "127.0.0.1:${port.route}", routes: [${routes.join(', ')}] }`] : []),
    ].join('\n'));
    return serverProcess(config, port.client, port.http);
  });
  await Promise.all(servers.map((s) => s.start()));
  return {
    servers,
    urls: servers.map((s) => s.url).join(','),
    close: async () => {
      await Promise.all(servers.map((s) => s.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function serverProcess(config: string, clientPort: number, httpPort: number): NatsServer {
  let child: ChildProcess | undefined;
  let output = '';
  const ended = (signal: NodeJS.Signals) => async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise((resolve) => { running.once('exit', resolve); running.kill(signal); });
  };
  return {
    url: `nats://127.0.0.1:${clientPort}`,
    stop: ended('SIGTERM'),
    kill: ended('SIGKILL'),
    output: () => output,
    async start() {
      output = '';
      child = spawn(NATS_SERVER!, ['-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (d) => { output += d; });
      child.stderr!.on('data', (d) => { output += d; });
      await healthy(httpPort, () => output);
    },
  };
}

/** Waits until the server's /healthz says JetStream is ready (at most 20 s). */
async function healthy(httpPort: number, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${httpPort}/healthz`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nats-server did not become healthy:\n${output().slice(-2000)}`);
}
