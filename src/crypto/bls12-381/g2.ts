/**
 * Points of E2: y² = x³ + 4(1 + u) over Fp2, in Jacobian coordinates (x/z², y/z³), and the
 * uncompressed 192-byte encoding shared with blst (ZCash layout: x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0,
 * big-endian); also the affine G1 points the pairing takes. Compression and group checks are
 * left to blst.
 */
import {
  FP2_ONE,
  FP2_ZERO,
  P,
  fp2Add,
  fp2Conj,
  fp2Eq,
  fp2Inv,
  fp2IsZero,
  fp2Mul,
  fp2Neg,
  fp2Pow,
  fp2Sqr,
  fp2Sub,
  mod,
  type Fp2,
} from './field.js';

export interface G2Jacobian {
  readonly x: Fp2;
  readonly y: Fp2;
  readonly z: Fp2;
}

export interface G2Affine {
  readonly x: Fp2;
  readonly y: Fp2;
}

export const G2_INFINITY: G2Jacobian = { x: FP2_ONE, y: FP2_ONE, z: FP2_ZERO };

export const TWIST_B: Fp2 = [4n, 4n];

export function g2FromAffine(p: G2Affine): G2Jacobian {
  return { x: p.x, y: p.y, z: FP2_ONE };
}

export function g2IsInfinity(p: G2Jacobian): boolean {
  return fp2IsZero(p.z);
}

export function g2IsOnCurve(p: G2Affine): boolean {
  return fp2Eq(fp2Sqr(p.y), fp2Add(fp2Mul(fp2Sqr(p.x), p.x), TWIST_B));
}

/** Doubling for a = 0 (dbl-2009-l). */
export function g2Double(p: G2Jacobian): G2Jacobian {
  if (g2IsInfinity(p) || fp2IsZero(p.y)) return G2_INFINITY;
  const a = fp2Sqr(p.x);
  const b = fp2Sqr(p.y);
  const c = fp2Sqr(b);
  const xb = fp2Add(p.x, b);
  const d0 = fp2Sub(fp2Sub(fp2Sqr(xb), a), c);
  const d = fp2Add(d0, d0);
  const e = fp2Add(fp2Add(a, a), a);
  const f = fp2Sqr(e);
  const x3 = fp2Sub(f, fp2Add(d, d));
  const c8 = fp2Add(fp2Add(fp2Add(c, c), fp2Add(c, c)), fp2Add(fp2Add(c, c), fp2Add(c, c)));
  const y3 = fp2Sub(fp2Mul(e, fp2Sub(d, x3)), c8);
  const yz = fp2Mul(p.y, p.z);
  return { x: x3, y: y3, z: fp2Add(yz, yz) };
}

/** General addition (add-2007-bl) with the doubling and inverse special cases. */
export function g2Add(p: G2Jacobian, q: G2Jacobian): G2Jacobian {
  if (g2IsInfinity(p)) return q;
  if (g2IsInfinity(q)) return p;
  const z1z1 = fp2Sqr(p.z);
  const z2z2 = fp2Sqr(q.z);
  const u1 = fp2Mul(p.x, z2z2);
  const u2 = fp2Mul(q.x, z1z1);
  const s1 = fp2Mul(fp2Mul(p.y, q.z), z2z2);
  const s2 = fp2Mul(fp2Mul(q.y, p.z), z1z1);
  const h = fp2Sub(u2, u1);
  const rHalf = fp2Sub(s2, s1);
  if (fp2IsZero(h)) return fp2IsZero(rHalf) ? g2Double(p) : G2_INFINITY;
  const h2 = fp2Add(h, h);
  const i = fp2Sqr(h2);
  const j = fp2Mul(h, i);
  const r = fp2Add(rHalf, rHalf);
  const v = fp2Mul(u1, i);
  const x3 = fp2Sub(fp2Sub(fp2Sqr(r), j), fp2Add(v, v));
  const s1j = fp2Mul(s1, j);
  const y3 = fp2Sub(fp2Mul(r, fp2Sub(v, x3)), fp2Add(s1j, s1j));
  const zSum = fp2Add(p.z, q.z);
  const z3 = fp2Mul(fp2Sub(fp2Sub(fp2Sqr(zSum), z1z1), z2z2), h);
  return { x: x3, y: y3, z: z3 };
}

export function g2Negate(p: G2Jacobian): G2Jacobian {
  return { x: p.x, y: fp2Neg(p.y), z: p.z };
}

// ψ = untwist ∘ Frobenius ∘ twist. With the twist (x, y) ↦ (x·w⁻², y·w⁻³) and w⁶ = ξ = 1 + u,
// ψ(x, y) = (conj(x)·ξ^(−(p−1)/3), conj(y)·ξ^(−(p−1)/2)); Jacobian z is conjugated as well.
const XI: Fp2 = [1n, 1n];
const PSI_X = fp2Inv(fp2Pow(XI, (P - 1n) / 3n));
const PSI_Y = fp2Inv(fp2Pow(XI, (P - 1n) / 2n));

export function g2Psi(p: G2Jacobian): G2Jacobian {
  return { x: fp2Mul(fp2Conj(p.x), PSI_X), y: fp2Mul(fp2Conj(p.y), PSI_Y), z: fp2Conj(p.z) };
}

/**
 * Plain double-and-add, not constant time. The only secret scalar it ever sees is the key in
 * popProve, which runs once, offline, on the key owner's machine (see field.ts).
 */
export function g2Multiply(p: G2Jacobian, scalar: bigint): G2Jacobian {
  let result = G2_INFINITY;
  for (let i = scalar.toString(2).length - 1; i >= 0; i--) {
    result = g2Double(result);
    if ((scalar >> BigInt(i)) & 1n) result = g2Add(result, p);
  }
  return result;
}

export function g2ToAffine(p: G2Jacobian): G2Affine | undefined {
  if (g2IsInfinity(p)) return undefined;
  const zInv = fp2Inv(p.z);
  const zInv2 = fp2Sqr(zInv);
  return { x: fp2Mul(p.x, zInv2), y: fp2Mul(p.y, fp2Mul(zInv2, zInv)) };
}

const COORDINATE_BYTES = 48;

function readCoordinate(bytes: Uint8Array, offset: number): bigint {
  let value = 0n;
  for (let i = 0; i < COORDINATE_BYTES; i++) value = (value << 8n) | BigInt(bytes[offset + i]!);
  return value;
}

function writeCoordinate(out: Uint8Array, offset: number, value: bigint): void {
  let v = value;
  for (let i = COORDINATE_BYTES - 1; i >= 0; i--) {
    out[offset + i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

/** Encodes a finite point as the 192-byte uncompressed form (flag bits all clear). */
export function g2AffineToUncompressed(p: G2Affine): Uint8Array {
  const out = new Uint8Array(4 * COORDINATE_BYTES);
  writeCoordinate(out, 0, p.x[1]);
  writeCoordinate(out, 48, p.x[0]);
  writeCoordinate(out, 96, p.y[1]);
  writeCoordinate(out, 144, p.y[0]);
  return out;
}

/** Reads the 192-byte uncompressed form of a finite point (as produced by blst). */
export function g2AffineFromUncompressed(bytes: Uint8Array): G2Affine {
  const x1 = readCoordinate(bytes, 0) & ((1n << 381n) - 1n); // drop flag bits
  return {
    x: [mod(readCoordinate(bytes, 48)), mod(x1)],
    y: [mod(readCoordinate(bytes, 144)), mod(readCoordinate(bytes, 96))],
  };
}

export interface G1Affine {
  readonly x: bigint;
  readonly y: bigint;
}

/** Reads the 96-byte uncompressed form x ‖ y of a finite G1 point (as produced by blst). */
export function g1AffineFromUncompressed(bytes: Uint8Array): G1Affine {
  return {
    x: mod(readCoordinate(bytes, 0) & ((1n << 381n) - 1n)),
    y: mod(readCoordinate(bytes, 48)),
  };
}
