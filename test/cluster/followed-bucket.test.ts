// A shared bucket (user assignments, API keys) written to while its stream
// does not listen: another node has just made it and the server told this
// one it exists before the stream subscribed to its subjects, or its leader
// is being elected. The write waits for the stream instead of taking
// "nobody answered" for "JetStream is not enabled".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { UserDirectory } from '../../src/nats/user-directory.js';
import { nobodyAnswered } from '../../src/nats/patience.js';
import { natsServerFor, startNats, type NatsGroup } from '../support/nats.js';

const run = natsServerFor('followed-bucket.test.ts');
let nats: NatsGroup;
let nc: NatsConnection;

beforeAll(async () => {
  if (!run) return;
  nats = await startNats(1);
  nc = await connect({ servers: nats.urls });
});
afterAll(async () => {
  await nc?.close();
  await nats?.close();
});

describe.skipIf(!run)('a write to a shared bucket whose stream is not listening yet', () => {
  it('waits for the stream, then stores the entry', async () => {
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);
    const users = await UserDirectory.open(js, 'assignments-late', 1);
    // the stream gone for a moment: its subjects have no listener, as a stream just made by another node
    await jsm.streams.delete('KV_assignments-late');
    const kv = await new Kvm(js).open('assignments-late');
    const unwaited = await kv.put('cluster.c0', 'c0').then(() => undefined, (e: unknown) => e);
    expect(nobodyAnswered(unwaited), String(unwaited)).toBe(true);

    const registered = users.register('c1');
    await new Promise((resolve) => setTimeout(resolve, 400));
    await new Kvm(js).create('assignments-late', { history: 1 });
    await registered;
    expect(users.clusters).toContain('c1');
    const stored = await (await new Kvm(js).open('assignments-late')).get('cluster.c1');
    expect(stored?.string()).toBe('c1');
  }, 30_000);
});
