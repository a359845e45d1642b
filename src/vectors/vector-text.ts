// A computed vector as the log and the follower feed carry it: its float32
// components, little-endian, in base64 (a third of the bytes of the numbers
// as MessagePack doubles, and JSON like every operation).

/** The float32 components of `vector`, little-endian, in base64. */
export function vectorText(vector: ArrayLike<number>): string {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i], true);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The vector `vectorText` wrote; undefined for text that is not one. */
export function vectorOfText(text: string): Float32Array | undefined {
  let binary: string;
  try { binary = atob(text); } catch { return undefined; }
  if (binary.length % 4 !== 0) return undefined;
  const view = new DataView(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) view.setUint8(i, binary.charCodeAt(i));
  const vector = new Float32Array(binary.length / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}
