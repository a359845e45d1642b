// Vectors as int8 codes: a vector is normalised (cosine similarity is then a
// dot product), each component scaled so the largest is ±127 and rounded,
// and the code kept with one f32: the inverse of the code's own norm, so a
// code stands for a unit vector again and two codes' dot product times their
// scales is their cosine. A query is coded the same way as int16 (finer, it
// is coded once), and the kernel multiplies int16 by int8 with
// i32x4.dot_i16x8_s, 16 components per step. A quarter of float32's bytes;
// the error on a similarity is about 1e-3, under the gaps between neighbours
// that decide a top 10.

/** Components padded with zeros to a multiple of this (one v128 of int8). */
export const LANES = 16;

@inline export function paddedLength(dimensions: i32): i32 { return (dimensions + LANES - 1) & ~(LANES - 1); }

/** Why a vector cannot be coded (0: it can). */
export const CODE_OK = 0;
export const CODE_NOT_FINITE = 1;
export const CODE_ZERO = 2;

/** Sum of squares of `n` f32 at `src`, as f64 (NaN or infinite when a component is). */
function squaredNorm(src: usize, n: i32): f64 {
  let sum: f64 = 0;
  for (let i = 0; i < n; i++) {
    const x = <f64>load<f32>(src + (<usize>i << 2));
    sum += x * x;
  }
  return sum;
}

/** Largest |component| / norm: the factor that maps the unit vector's largest component to `top`. */
function peak(src: usize, n: i32): f64 {
  let m: f64 = 0;
  for (let i = 0; i < n; i++) {
    const x = Math.abs(<f64>load<f32>(src + (<usize>i << 2)));
    if (x > m) m = x;
  }
  return m;
}

/** Why the `n` f32 at `src` cannot be coded, or CODE_OK. */
export function codability(src: usize, n: i32): i32 {
  const s = squaredNorm(src, n);
  if (!isFinite(s)) return CODE_NOT_FINITE;
  return s > 0 ? CODE_OK : CODE_ZERO;
}

/**
 * Codes the `n` f32 at `src` (codable) as int8 at `dst` (padded with zeros
 * to `paddedLength(n)`); returns the code's scale, 1 / its norm. The
 * direction is all a code keeps, so the vector needs no normalising first.
 */
export function codeInt8(src: usize, n: i32, dst: usize): f32 {
  const factor = 127 / peak(src, n);
  let sum: f64 = 0;
  for (let i = 0; i < n; i++) {
    const c = Math.round(<f64>load<f32>(src + (<usize>i << 2)) * factor);
    store<i8>(dst + <usize>i, <i8>c);
    sum += c * c;
  }
  memory.fill(dst + <usize>n, 0, <usize>(paddedLength(n) - n));
  return <f32>(1 / Math.sqrt(sum));
}

/**
 * Codes the `n` f32 at `src` (codable) as int16 at `dst`, the largest
 * component at `top`; returns 1 / the code's norm. `top` keeps a dot
 * product with int8 codes inside i32 (see `queryTop`).
 */
export function codeInt16(src: usize, n: i32, dst: usize, top: i32): f32 {
  const factor = <f64>top / peak(src, n);
  let sum: f64 = 0;
  for (let i = 0; i < n; i++) {
    const c = Math.round(<f64>load<f32>(src + (<usize>i << 2)) * factor);
    store<i16>(dst + (<usize>i << 1), <i16>c);
    sum += c * c;
  }
  memory.fill(dst + (<usize>n << 1), 0, <usize>(paddedLength(n) - n) << 1);
  return <f32>(1 / Math.sqrt(sum));
}

/** The largest int16 query component whose dot product with `padded` int8 components cannot overflow i32. */
export function queryTop(padded: i32): i32 {
  const bound = <i32>(<f64>I32.MAX_VALUE / (127 * <f64>padded));
  return bound < I16.MAX_VALUE ? bound : I16.MAX_VALUE;
}

/** Widens an int8 code to int16 at `dst` (a stored vector becomes a query while it is linked). */
export function widen(code: usize, padded: i32, dst: usize): void {
  for (let i = 0; i < padded; i += LANES) {
    const c = v128.load(code + <usize>i);
    v128.store(dst + (<usize>i << 1), i16x8.extend_low_i8x16_s(c));
    v128.store(dst + (<usize>i << 1) + 16, i16x8.extend_high_i8x16_s(c));
  }
}

/** The dot product of an int16 query and an int8 code, `padded` components each (a multiple of LANES). */
@inline export function dot(query: usize, code: usize, padded: i32): i32 {
  let a = i32x4.splat(0);
  let b = i32x4.splat(0);
  const end = code + <usize>padded;
  while (code < end) {
    const c = v128.load(code);
    a = i32x4.add(a, i32x4.dot_i16x8_s(v128.load(query), i16x8.extend_low_i8x16_s(c)));
    b = i32x4.add(b, i32x4.dot_i16x8_s(v128.load(query, 16), i16x8.extend_high_i8x16_s(c)));
    code += LANES;
    query += LANES << 1;
  }
  const s = i32x4.add(a, b);
  return i32x4.extract_lane(s, 0) + i32x4.extract_lane(s, 1) + i32x4.extract_lane(s, 2) + i32x4.extract_lane(s, 3);
}
