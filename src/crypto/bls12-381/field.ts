/**
 * Arithmetic in the BLS12-381 base field Fp and its quadratic extension Fp2 = Fp[u]/(u² + 1), on
 * plain bigints. This exists only because @chainsafe/blst 2.x exposes signing and verification with
 * the fixed signature DST, while Lisk's proof of possession (LIP 0038) needs the `BLS_POP_` DST. It
 * is never on a hot path (PoP checks happen once per validator registration), so clarity wins over
 * speed; constant-time behaviour is not needed because the only secret ever multiplied here is
 * during `popProve`, which runs on the key owner's machine (see bls-pop.ts for that trade-off).
 */

/** The field modulus p of BLS12-381. */
export const P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn;

/** The prime order r of G1, G2 and GT. */
export const R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;

/** |x|, where x = -0xd201000000010000 is the BLS parameter of the curve. */
export const ABS_X = 0xd201000000010000n;

export function mod(a: bigint): bigint {
  const r = a % P;
  return r < 0n ? r + P : r;
}

export function fpAdd(a: bigint, b: bigint): bigint {
  const s = a + b;
  return s >= P ? s - P : s;
}

export function fpSub(a: bigint, b: bigint): bigint {
  const d = a - b;
  return d < 0n ? d + P : d;
}

export function fpNeg(a: bigint): bigint {
  return a === 0n ? 0n : P - a;
}

export function fpMul(a: bigint, b: bigint): bigint {
  return (a * b) % P;
}

export function fpPow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return result;
}

/** Inverse by the extended Euclidean algorithm (much faster than Fermat on bigints). */
export function fpInv(a: bigint): bigint {
  let r0 = P;
  let r1 = mod(a);
  if (r1 === 0n) throw new RangeError('inverse of zero');
  let t0 = 0n;
  let t1 = 1n;
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  return mod(t0);
}

/** An element c0 + c1·u of Fp2. */
export type Fp2 = readonly [bigint, bigint];

export const FP2_ZERO: Fp2 = [0n, 0n];
export const FP2_ONE: Fp2 = [1n, 0n];

export function fp2(c0: bigint, c1: bigint): Fp2 {
  return [mod(c0), mod(c1)];
}

export function fp2Add(a: Fp2, b: Fp2): Fp2 {
  return [fpAdd(a[0], b[0]), fpAdd(a[1], b[1])];
}

export function fp2Sub(a: Fp2, b: Fp2): Fp2 {
  return [fpSub(a[0], b[0]), fpSub(a[1], b[1])];
}

export function fp2Neg(a: Fp2): Fp2 {
  return [fpNeg(a[0]), fpNeg(a[1])];
}

/** Karatsuba: three base-field products instead of four. */
export function fp2Mul(a: Fp2, b: Fp2): Fp2 {
  const t0 = a[0] * b[0];
  const t1 = a[1] * b[1];
  const c0 = (t0 - t1) % P;
  const c1 = ((a[0] + a[1]) * (b[0] + b[1]) - t0 - t1) % P;
  return [c0 < 0n ? c0 + P : c0, c1];
}

export function fp2Sqr(a: Fp2): Fp2 {
  // (a0 + a1 u)² = (a0 + a1)(a0 - a1) + 2 a0 a1 u
  const c0 = ((a[0] + a[1]) * (a[0] - a[1])) % P;
  return [c0 < 0n ? c0 + P : c0, (2n * a[0] * a[1]) % P];
}

export function fp2MulFp(a: Fp2, k: bigint): Fp2 {
  return [(a[0] * k) % P, (a[1] * k) % P];
}

/** Multiplication by ξ = 1 + u, the non-residue that defines Fp6. */
export function fp2MulByXi(a: Fp2): Fp2 {
  return [fpSub(a[0], a[1]), fpAdd(a[0], a[1])];
}

/** The Frobenius map a ↦ a^p, which on Fp2 is complex conjugation. */
export function fp2Conj(a: Fp2): Fp2 {
  return [a[0], fpNeg(a[1])];
}

export function fp2Inv(a: Fp2): Fp2 {
  const normInv = fpInv(a[0] * a[0] + a[1] * a[1]);
  return [(a[0] * normInv) % P, (fpNeg(a[1]) * normInv) % P];
}

export function fp2IsZero(a: Fp2): boolean {
  return a[0] === 0n && a[1] === 0n;
}

export function fp2Eq(a: Fp2, b: Fp2): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

export function fp2Pow(base: Fp2, exponent: bigint): Fp2 {
  let result: Fp2 = FP2_ONE;
  let b = base;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = fp2Mul(result, b);
    b = fp2Sqr(b);
    e >>= 1n;
  }
  return result;
}

const P_MINUS_3_DIV_4 = (P - 3n) / 4n;
const P_MINUS_1_DIV_2 = (P - 1n) / 2n;

/**
 * A square root in Fp2, or undefined when there is none. Algorithm 9 of Adj and
 * Rodríguez-Henríquez, "Square root computation over even extension fields" (p ≡ 3 mod 4).
 * Which of the two roots comes back does not matter: callers fix the sign themselves.
 */
export function fp2Sqrt(a: Fp2): Fp2 | undefined {
  if (fp2IsZero(a)) return FP2_ZERO;
  const a1 = fp2Pow(a, P_MINUS_3_DIV_4);
  const x0 = fp2Mul(a1, a);
  const alpha = fp2Mul(a1, x0);
  let candidate: Fp2;
  if (alpha[0] === P - 1n && alpha[1] === 0n) {
    candidate = [fpNeg(x0[1]), x0[0]]; // u · x0
  } else {
    const b = fp2Pow(fp2Add(FP2_ONE, alpha), P_MINUS_1_DIV_2);
    candidate = fp2Mul(b, x0);
  }
  return fp2Eq(fp2Sqr(candidate), a) ? candidate : undefined;
}

/** sgn0 of RFC 9380 §4.1 for m = 2. */
export function fp2Sgn0(a: Fp2): 0 | 1 {
  const sign0 = a[0] & 1n;
  const zero0 = a[0] === 0n;
  const sign1 = a[1] & 1n;
  return sign0 === 1n || (zero0 && sign1 === 1n) ? 1 : 0;
}
