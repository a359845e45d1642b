// What an application is called in NATS JetStream: the stream its writes
// are appended to, the subject they are published on, and the object store
// bucket its snapshots are kept in; with named clusters (`--clusters c1`),
// each cluster has a stream and a bucket of its own, and the application
// has key-value buckets of user assignments and of API keys, and a subject on which the
// nodes of each cluster answer with their URL. Every node started with the
// same app id finds the same ones. JetStream names take letters, digits,
// `-` and `_` only, so every other byte of a name (and `_` itself) is
// written `_` and two hex digits: an escaped name never holds `__`, which
// separates the app id from the cluster, so two applications or clusters
// never share a stream.

export interface JetStreamNames {
  stream: string;
  subject: string;
  bucket: string;
}

/** What the nodes of every cluster of an application share. */
export interface ApplicationNames {
  /** The key-value bucket of user assignments and cluster names. */
  directory: string;
  /** The key-value bucket of API keys. */
  keys: string;
  /** The subject the nodes serving `cluster` answer on with their URL. */
  nodesOf: (cluster: string) => string;
}

/** The stream, subject and snapshot bucket of application `appId` (of its cluster `cluster`, when named). */
export function namesOf(appId: string, cluster?: string): JetStreamNames {
  const id = cluster === undefined ? escaped(appId) : `${escaped(appId)}__${escaped(cluster)}`;
  const subject = cluster === undefined ? `lantern.${escaped(appId)}.log` : `lantern.${escaped(appId)}.clusters.${escaped(cluster)}.log`;
  return { stream: `LANTERN_${id}`, subject, bucket: `LANTERN_${id}_SNAPSHOTS` };
}

/** The names application `appId` uses across its clusters. */
export function applicationNamesOf(appId: string): ApplicationNames {
  const id = escaped(appId);
  return { directory: `LANTERN_${id}_DIRECTORY`, keys: `LANTERN_${id}_KEYS`, nodesOf: (cluster) => `lantern.${id}.nodes.${escaped(cluster)}` };
}

/** A name as JetStream names, subjects and keys take it (letters, digits and `-` kept; any other byte `_` and two hex digits). */
export function escaped(name: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(name)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9-]/.test(c) ? c : `_${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

/** The name an escaped one was made from. */
export function unescaped(name: string): string {
  return decodeURIComponent(name.replace(/_([0-9a-f]{2})/g, '%$1'));
}
