// Which node serves which cluster, when each cluster of an application is
// served by nodes of its own: every node answers requests on its cluster's
// subject (`lantern.<app>.nodes.<cluster>`, in a queue group: one node
// answers each) with the URL it is reached at. A node looking for a node of
// another cluster asks there; nobody answering means no node serves it now
// (a node that stops or loses NATS stops answering with it). An answer is
// kept a few seconds, so a run of calls for one cluster asks NATS once.
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { ClusterNodes } from '../clusters/forwarding.js';
import type { ApplicationNames } from './names.js';

/** How long a node waits for a node of another cluster to say where it is. */
const ASK_TIMEOUT_MS = 1000;
/** How long an answer is kept. */
const KEPT_MS = 3000;

export class NatsClusterNodes implements ClusterNodes {
  private readonly known = new Map<string, { url: string; until: number }>();
  private subscription: Subscription | undefined;

  constructor(private readonly nc: NatsConnection, private readonly names: ApplicationNames, readonly served: string) {}

  /** Answers the nodes looking for one of this cluster with `url`, from now until the connection closes. */
  advertise(url: string): void {
    this.subscription?.unsubscribe();
    this.subscription = this.nc.subscribe(this.names.nodesOf(this.served), {
      queue: 'nodes',
      callback: (error, message) => { if (!error) message.respond(url); },
    });
  }

  async urlOf(cluster: string): Promise<string | undefined> {
    const kept = this.known.get(cluster);
    if (kept && kept.until > Date.now()) return kept.url;
    try {
      const url = (await this.nc.request(this.names.nodesOf(cluster), undefined, { timeout: ASK_TIMEOUT_MS })).string();
      this.known.set(cluster, { url, until: Date.now() + KEPT_MS });
      return url;
    } catch {
      // nobody answered (or NATS cannot be reached): no node of that cluster can be found now
      this.known.delete(cluster);
      return undefined;
    }
  }

  forget(url: string): void {
    for (const [cluster, kept] of this.known) if (kept.url === url) this.known.delete(cluster);
  }
}
