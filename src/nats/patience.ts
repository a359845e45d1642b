// A NATS cluster answers nothing, or "temporarily unavailable", for a few
// seconds while it elects a leader (a server was lost, or the cluster is
// starting). A node waits that out instead of failing: setting itself up
// (making the stream, opening the snapshot store, creating its consumer),
// reading a snapshot (one it could not read is not a damaged one), and
// sending a write. Nodes starting together race to make the same stream:
// the server may tell the loser its name or subjects are taken, and the
// call made again finds the stream the winner made; the loser may also be
// told the stream exists before the winner's stream listens on its
// subjects, so its first write finds nobody for a moment.
import { NoRespondersError, RequestError, TimeoutError } from '@nats-io/transport-node';
import { JetStreamApiError } from '@nats-io/jetstream';

export interface Patience {
  /** How long the call is tried again (default 30 s). */
  ms?: number;
  /**
   * Whether nobody answering is worth waiting for: a write to a stream
   * whose leader is being elected or that another node has just made, or
   * any call once JetStream has answered (before that, it means JetStream
   * is not enabled, and waiting will not change that).
   */
  forResponders?: boolean;
  /**
   * Whether the call makes a stream (or a bucket) the first time: it is
   * made once more if another node made the same one at the same moment.
   */
  makes?: boolean;
}

/** How long a write waits for a stream to listen (the leader of one that lost it is elected within seconds). */
export const FOR_A_WRITE: Patience = { ms: 15_000, forResponders: true };

/** How a call that makes a stream or a bucket waits, once JetStream has answered (another node may be making it too). */
export const FOR_MAKING: Patience = { makes: true, forResponders: true };

/** JetStream still not answering once the patience ran out (its `cause` is the last answer). */
export class NotAnsweredError extends Error {}

/** `call`'s result, tried again while JetStream does not answer (for `patience.ms`); any other error passes through. */
export async function whenAnswered<T>(call: () => Promise<T>, { ms = 30_000, forResponders = false, makes = false }: Patience = {}): Promise<T> {
  const deadline = Date.now() + ms;
  let racing = makes;
  for (let pause = 100; ; pause = Math.min(2 * pause, 1000)) {
    try {
      return await call();
    } catch (e) {
      if (racing && madeMeanwhile(e)) { racing = false; continue; }
      if (!(unanswered(e) || (forResponders && nobodyAnswered(e)))) throw e;
      if (Date.now() > deadline) throw new NotAnsweredError(`NATS JetStream did not answer for ${ms / 1000} s (${(e as Error).message})`, { cause: e });
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** A call NATS did not answer (yet): a timeout, or JetStream saying it is unavailable for now. */
function unanswered(e: unknown): boolean {
  if (e instanceof JetStreamApiError) return e.status === 503;
  return e instanceof TimeoutError || causedBy(e, unanswered);
}

/** JetStream's codes for a stream whose name, or subjects, another stream holds. */
const STREAM_NAME_IN_USE = 10058;
const STREAM_SUBJECT_OVERLAP = 10065;

/** A stream made by another caller between this one's look and its making. */
function madeMeanwhile(e: unknown): boolean {
  return e instanceof JetStreamApiError && (e.code === STREAM_NAME_IN_USE || e.code === STREAM_SUBJECT_OVERLAP);
}

/** Nobody listened to the call (JetStream "is not enabled": no server has it, or a stream has no leader). */
export function nobodyAnswered(e: unknown): boolean {
  return e instanceof NoRespondersError || (e instanceof RequestError && e.isNoResponders()) || causedBy(e, nobodyAnswered);
}

const causedBy = (e: unknown, test: (cause: unknown) => boolean) => e instanceof Error && e.cause !== undefined && test(e.cause);
