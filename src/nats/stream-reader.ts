// How one node reads the application's stream: in order, each entry handed
// over before the next is read (stream-log.ts turns them into log entries).
// The node reads through a consumer of its own with as many copies as the
// stream (the client's ordered consumers keep one copy, and a server of
// NATS 2.9-2.11 may place it, or its replacement, on a server that is
// down: the reader then hears nothing for as long as that server is lost).
// The consumer acknowledges nothing and starts where the node is. The
// reader checks the order itself, and watches itself: when a sequence
// jumps, or the stream holds entries past the next one and none came for
// STALL_MS, it makes a new consumer where it left off. A sequence that jumps
// because the stream was trimmed past what the node holds stops reading
// with a LogTrimmedError.
import { nanos } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import { LogTrimmedError } from '../durability/shared-log.js';
import { whenAnswered } from './patience.js';

/** Entries read ahead of the one being handed over. */
const READ_AHEAD = 256;
/** How long a node's consumer stays on the servers after the node is gone (holding trimming back meanwhile). */
const CONSUMER_INACTIVE_MS = 30_000;
/** A reader with entries waiting that got none for this long makes a new consumer. */
const STALL_MS = 3000;

export interface StreamReaderOptions {
  js: JetStreamClient;
  jsm: JetStreamManager;
  stream: string;
  /** The copies the stream keeps (the consumer keeps as many). */
  replicas: number;
  /** Its consumers are named after it. */
  name: string;
  /** The entry to read first. */
  from: number;
  /** The stream's last entry when reading starts: `caughtUp` resolves once it is handed over. */
  through: number;
  /** Hands an entry over; the next is read once it resolves. */
  handle: (message: JsMsg) => Promise<void>;
  /** Reading stopped after catching up (the stream was trimmed past the node, or an entry failed). */
  stopped: (error: unknown) => void;
}

/** A sequence that jumps: a message lost on the way, or a stream trimmed. */
class Jump extends Error {}

export class StreamReader {
  /** Resolves once the stream's entries up to `through` are handed over; rejects when reading stops first. */
  readonly caughtUp: Promise<void>;
  private next: number;
  private consumer: { name: string; messages: ConsumerMessages } | undefined;
  /** Which consumer is current (a replaced one's messages are ignored). */
  private generation = 0;
  private lastProgress = Date.now();
  private handing = false;
  private restarting = false;
  private watchdog: ReturnType<typeof setInterval> | undefined;
  private caught = false;
  private ended = false;
  private settle!: { resolve: () => void; reject: (e: unknown) => void };

  constructor(private readonly options: StreamReaderOptions) {
    this.next = options.from;
    this.caughtUp = new Promise((resolve, reject) => { this.settle = { resolve, reject }; });
    this.caughtUp.catch(() => {});
    if (options.through < this.next) this.reachedTarget();
  }

  /** Starts reading (resolves once the consumer exists). */
  async start(): Promise<void> {
    await this.consume();
    this.watchdog = setInterval(() => void this.unstall(), STALL_MS);
    this.watchdog.unref?.();
  }

  async close(): Promise<void> {
    this.ended = true;
    clearInterval(this.watchdog);
    await this.dropConsumer();
  }

  /** A consumer from the next entry on, read until it is replaced or closed. */
  private async consume(): Promise<void> {
    const generation = ++this.generation;
    const { js, jsm, stream, replicas, name } = this.options;
    const config = {
      name: `${name}_${generation}`, deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: this.next,
      ack_policy: AckPolicy.None, inactive_threshold: nanos(CONSUMER_INACTIVE_MS), num_replicas: replicas,
    };
    const info = await whenAnswered(() => jsm.consumers.add(stream, config));
    const messages = await js.consumers.getConsumerFromInfo(info).consume({ max_messages: READ_AHEAD });
    this.consumer = { name: info.name, messages };
    this.lastProgress = Date.now();
    this.read(messages, generation).catch((e: unknown) => (e instanceof Jump ? this.restart() : this.stop(e)));
  }

  private async read(messages: ConsumerMessages, generation: number): Promise<void> {
    for await (const m of messages) {
      if (generation !== this.generation || this.ended) return;
      if (m.seq < this.next) continue; // handed over already
      if (m.seq > this.next) throw new Jump();
      this.handing = true;
      try {
        await this.options.handle(m);
      } finally {
        this.handing = false;
      }
      this.next = m.seq + 1;
      this.lastProgress = Date.now();
      if (!this.caught && this.next > this.options.through) this.reachedTarget();
    }
  }

  /** Makes a new consumer when the stream holds entries past the next one and none came for STALL_MS. */
  private async unstall(): Promise<void> {
    if (this.ended || this.handing || this.restarting || Date.now() - this.lastProgress < STALL_MS) return;
    const { state } = await this.options.jsm.streams.info(this.options.stream).catch(() => ({ state: undefined }));
    if (!state) return; // NATS does not answer: the next check asks again
    if (state.last_seq < this.next) this.lastProgress = Date.now(); // nothing to read: not stalled
    else await this.restart();
  }

  /** Reads again from the next entry with a new consumer; stops when the stream was trimmed past it. */
  private async restart(): Promise<void> {
    if (this.restarting || this.ended) return;
    this.restarting = true;
    try {
      const { state } = await whenAnswered(() => this.options.jsm.streams.info(this.options.stream));
      if (state.first_seq > this.next) return this.stop(new LogTrimmedError(this.next - 1, state.first_seq));
      await this.dropConsumer();
      await this.consume();
    } catch {
      // NATS does not answer: the watchdog tries again
      this.lastProgress = 0;
    } finally {
      this.restarting = false;
    }
  }

  /** Stops reading the current consumer and deletes it (it would go by itself once inactive). */
  private async dropConsumer(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = undefined;
    if (!consumer) return;
    await consumer.messages.close().catch(() => {});
    await this.options.jsm.consumers.delete(this.options.stream, consumer.name).catch(() => {});
  }

  private reachedTarget(): void {
    this.caught = true;
    this.settle.resolve();
  }

  private stop(error: unknown): void {
    if (this.ended) return;
    void this.close();
    if (this.caught) this.options.stopped(error);
    else this.settle.reject(error);
  }
}
