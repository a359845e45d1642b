// A read worker (Node build only: dist/read-worker.js; see
// replication/read-pool.ts): a replica of the writer's state in memory, in a
// worker thread. It loads the writer's image, applies the writer's stream of
// operations (replication/replica.ts) and answers the read calls the
// writer's router forwards to it (replication/reads.ts); the searches it
// answers are sent back for the writer to record.
import { parentPort, workerData } from 'node:worker_threads';
import { Lantern } from './lantern.js';
import { Replica } from './replication/replica.js';
import { answerRead } from './replication/reads.js';
import type { FromWorker, ToWorker } from './replication/protocol.js';
import type { SearchEvent } from './analytics/events.js';
import type { ReplicaOptions } from './engine/engine.js';

const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);

// the writer's room for events and its models' minimums: personalised answers are the writer's, whoever gives them
const engine = await Lantern.open({ ...(workerData as ReplicaOptions), snapshotEvery: 0 });
const searches: SearchEvent[] = [];
engine.analytics.searchSink = (event) => searches.push(event);
/** This replica may differ from the writer from now on: it says why and stops (the pool starts another). */
function fail(e: unknown): never {
  post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
  process.exit(1);
}

const replica = new Replica(engine, { applied: (taskID) => post({ type: 'applied', taskID }), failed: fail });

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'image':
      engine.cursorKey = message.cursorKey;
      replica.start(message.image).then(() => post({ type: 'ready' }), fail);
      return;
    case 'op':
      replica.receive(message.entry);
      return;
    case 'read':
      void answerRead(engine, engine.services, message.op, message.call)
        .then((answer) => post({ type: 'answer', id: message.id, answer, searches: searches.splice(0) }));
  }
});
