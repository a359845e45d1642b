// What an application is called in NATS JetStream: the stream its writes
// are appended to, the subject they are published on, and the object store
// bucket its snapshots are kept in. Every node started with the same app id
// finds the same ones. JetStream names take letters, digits, `-` and `_`
// only, so every other byte of the id (and `_` itself) is written `_` and
// two hex digits: two app ids never share a stream.

export interface JetStreamNames {
  stream: string;
  subject: string;
  bucket: string;
}

/** The stream, subject and snapshot bucket of application `appId`. */
export function namesOf(appId: string): JetStreamNames {
  const id = escaped(appId);
  return { stream: `LANTERN_${id}`, subject: `lantern.${id}.log`, bucket: `LANTERN_${id}_SNAPSHOTS` };
}

function escaped(appId: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(appId)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9-]/.test(c) ? c : `_${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}
