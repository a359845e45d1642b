// The application's log as a JetStream stream: the shared log of cluster
// mode (src/durability/shared-log.ts). A write is published on the stream's
// subject, and the sequence JetStream's acknowledgement gives it is its
// taskID on every node. Each node reads the stream in sequence order
// (stream-reader.ts) and hands every entry to its durability module.
// Headers carry what applying an entry needs besides the operation: whether
// it is queued, its weight and index, and the node that wrote it. While the
// connection to NATS is lost, writes are refused at once (503).
import { headers, nuid, type NatsConnection } from '@nats-io/transport-node';
import type { JetStreamClient, JetStreamManager, JsMsg } from '@nats-io/jetstream';
import { ApiError } from '../util/errors.js';
import { LogTrimmedError, type NewEntry, type SharedEntry, type SharedLog } from '../durability/shared-log.js';
import type { JetStreamNames } from './names.js';
import { FOR_A_WRITE, whenAnswered } from './patience.js';
import { StreamReader } from './stream-reader.js';

/** Headers of an entry: the node that wrote it; a queued write's weight (absent: an immediate one) and index. */
const NODE = 'Lantern-Node';
const WEIGHT = 'Lantern-Weight';
const INDEX = 'Lantern-Index';

/**
 * How long a write waits for JetStream's acknowledgement each time it is
 * sent: it is sent again (with the same message ID, so it is stored once)
 * while JetStream does not answer, for `FOR_A_WRITE` in all, since a stream
 * whose leader was lost elects another within seconds.
 */
const ACK_TIMEOUT_MS = 4000;
/** Room left in a message for its headers and subject (NATS counts them in max_payload). */
const HEADROOM = 1024;

export class StreamLog implements SharedLog {
  /** How this node is named in the entries it writes. */
  readonly nodeID = nuid.next();
  /** Why NATS cannot be reached now. */
  private disconnected: string | undefined;
  /** Why this node cannot go on with the log at all (it fell behind a trim). */
  private failed: string | undefined;
  private reader: StreamReader | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly names: JetStreamNames,
    private readonly report: (line: string) => void,
  ) {}

  get unavailable(): string | undefined { return this.failed ?? this.disconnected; }

  /** The connection to NATS was lost (`why`), or is back (undefined). */
  connection(why: string | undefined): void {
    this.disconnected = why && `Writes are refused while NATS cannot be reached (${why}); searches are still answered. Try again once it is back`;
  }

  async append({ bytes, queued, weight, group }: NewEntry): Promise<number> {
    if (this.unavailable) throw new ApiError('unavailable', this.unavailable);
    const max = (this.nc.info?.max_payload ?? 1 << 20) - HEADROOM;
    if (bytes.length > max) {
      throw new ApiError('payload_too_large', `The write takes ${bytes.length} bytes in the log, more than the NATS server's max_payload allows (${max}): send smaller batches, or raise max_payload in the NATS server's configuration`);
    }
    const h = headers();
    h.set(NODE, this.nodeID);
    if (queued) h.set(WEIGHT, String(weight));
    if (queued && group !== undefined) h.set(INDEX, encodeURIComponent(group));
    const sent = { headers: h, msgID: nuid.next(), timeout: ACK_TIMEOUT_MS };
    try {
      return (await whenAnswered(() => this.js.publish(this.names.subject, bytes, sent), FOR_A_WRITE)).seq;
    } catch (e) {
      throw new ApiError('unavailable', `NATS JetStream did not acknowledge the write (${messageOf(e)}): it may not be stored; try again`);
    }
  }

  async follow(after: number, deliver: (entry: SharedEntry) => Promise<void>, trimmed?: () => void): Promise<void> {
    const { state, config } = await whenAnswered(() => this.jsm.streams.info(this.names.stream));
    if (state.last_seq > after && state.first_seq > after + 1) throw new LogTrimmedError(after, state.first_seq);
    this.failed = undefined;
    this.reader = new StreamReader({
      js: this.js, jsm: this.jsm, stream: this.names.stream, replicas: config.num_replicas, name: this.nodeID,
      from: after + 1, through: state.last_seq,
      handle: (m) => deliver(this.entryOf(m)),
      stopped: (e) => this.stopped(e, trimmed),
    });
    await this.reader.start();
    return this.reader.caughtUp;
  }

  /**
   * Following stopped: writes are refused from now on. A node the log was
   * trimmed past while it was away starts again from the newest snapshot
   * (`trimmed`); one that failed to apply an entry cannot go on, and says so.
   */
  private stopped(e: unknown, trimmed: (() => void) | undefined): void {
    if (e instanceof LogTrimmedError && trimmed) {
      this.failed = 'This node fell behind the application\'s log and is loading the newest snapshot; try again in a moment';
      this.report(`lantern: ${messageOf(e)}: loading the newest snapshot`);
      trimmed();
      return;
    }
    this.failed = `This node stopped following the application's log (${messageOf(e)}): restart it to load the newest snapshot`;
    this.report(this.failed);
  }

  async holds(taskID: number): Promise<boolean> {
    return taskID <= (await this.state()).last_seq;
  }

  /** The first task the stream still holds (1 when it was never trimmed). */
  async firstTaskID(): Promise<number> {
    return Math.max(1, (await this.state()).first_seq);
  }

  /**
   * Drops the entries up to task `through` (a verified snapshot holds them),
   * but none that a node following the stream has not read yet; resolves
   * with the number dropped.
   */
  async trim(through: number): Promise<number> {
    let upTo = through;
    for await (const consumer of this.jsm.consumers.list(this.names.stream)) upTo = Math.min(upTo, consumer.delivered.stream_seq);
    if (upTo < (await this.firstTaskID())) return 0;
    return (await this.jsm.streams.purge(this.names.stream, { seq: upTo + 1 })).purged;
  }

  async close(): Promise<void> {
    await this.reader?.close();
  }

  /** The stream's state (asked of NATS also while writes are refused for another reason: a node rejoining reads it). */
  private async state() {
    if (this.disconnected) throw new ApiError('unavailable', this.disconnected);
    try {
      return (await this.jsm.streams.info(this.names.stream)).state;
    } catch (e) {
      throw new ApiError('unavailable', `NATS JetStream did not answer (${messageOf(e)}); try again`);
    }
  }

  private entryOf(m: JsMsg): SharedEntry {
    const weight = m.headers?.get(WEIGHT) ?? '';
    const group = m.headers?.get(INDEX) ?? '';
    return {
      taskID: m.seq,
      bytes: m.data,
      queued: weight !== '',
      weight: Number(weight) || 1,
      ...(group === '' ? {} : { group: decodeURIComponent(group) }),
      own: m.headers?.get(NODE) === this.nodeID,
    };
  }
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0];
