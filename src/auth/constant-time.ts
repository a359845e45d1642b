// Comparing secrets (keys, signatures) in time that does not depend on where
// they differ, so timing tells a caller nothing about a key's bytes.

/** Whether two strings are equal, compared over their whole UTF-8 length. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
