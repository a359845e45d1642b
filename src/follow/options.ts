// What an application tells an engine that follows a server, and what it
// can see of the following (the options of `Lantern.open({ follow })`; the
// follower itself is follower.ts).

/** How an engine follows a server (`Lantern.open({ follow: { url, apiKey } })`). */
export interface FollowOptions {
  /** The server's URL, as its API is reached: `https://search.example.com` or `http://127.0.0.1:7700`. */
  url: string;
  /**
   * A key of the server with the `follow` right (the admin key has it).
   * Its `indexes` restriction limits what this engine receives: the
   * records, settings, synonyms and rules of the indexes it reaches (and
   * the dictionaries); never keys, logs or analytics.
   */
  apiKey: string;
  /** The server's application ID, when it checks one (`lantern serve --app-id`). */
  appId?: string;
  /** Milliseconds before the first retry after a lost connection (default 500); each retry waits twice as long, up to `maxRetryMs`. */
  retryMs?: number;
  /** The longest wait between two attempts to reach the server, in milliseconds (default 30,000). */
  maxRetryMs?: number;
  /**
   * Milliseconds without a byte from the server after which the connection
   * is deemed lost and made again (default 45,000: the server sends
   * something at least every 15 seconds).
   */
  silenceMs?: number;
  /** The `fetch` to reach the server with (default: the global one). */
  fetch?: typeof fetch;
}

/** Where a follower stands (`lantern.follower.state`). */
export interface FollowState {
  /** The server followed. */
  url: string;
  /** Whether the log is being received now. */
  connected: boolean;
  /** Connected, and every write the server had when it connected is applied: what follows is new. */
  caughtUp: boolean;
  /** The server's taskID this engine is at: every write up to it that the key lets through is applied. */
  lastTaskID: number;
  /** Snapshots loaded from the server (the first one, and one each time the log could not be followed). */
  snapshotsLoaded: number;
  /** Why the last attempt to reach the server failed; undefined while connected. */
  lastError?: string;
}
