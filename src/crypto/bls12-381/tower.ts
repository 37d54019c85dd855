/**
 * The extension tower used by the pairing: Fp6 = Fp2[v]/(v³ − ξ) and Fp12 = Fp6[w]/(w² − v),
 * with ξ = 1 + u. Hence w⁶ = ξ, which is what lets a point of the sextic twist E'(Fp2) be
 * carried to E(Fp12) as (x·w⁻², y·w⁻³) (see pairing.ts).
 */
import { FP2_ONE, FP2_ZERO, P, fp2Add, fp2Conj, fp2Inv, fp2Mul, fp2MulByXi, fp2Neg, fp2Pow, fp2Sqr, fp2Sub, type Fp2 } from './field.js';

/** a0 + a1·v + a2·v² */
export type Fp6 = readonly [Fp2, Fp2, Fp2];
/** c0 + c1·w */
export type Fp12 = readonly [Fp6, Fp6];

export const FP6_ZERO: Fp6 = [FP2_ZERO, FP2_ZERO, FP2_ZERO];
export const FP6_ONE: Fp6 = [FP2_ONE, FP2_ZERO, FP2_ZERO];
export const FP12_ONE: Fp12 = [FP6_ONE, FP6_ZERO];

export function fp6Add(a: Fp6, b: Fp6): Fp6 {
  return [fp2Add(a[0], b[0]), fp2Add(a[1], b[1]), fp2Add(a[2], b[2])];
}

export function fp6Sub(a: Fp6, b: Fp6): Fp6 {
  return [fp2Sub(a[0], b[0]), fp2Sub(a[1], b[1]), fp2Sub(a[2], b[2])];
}

export function fp6Neg(a: Fp6): Fp6 {
  return [fp2Neg(a[0]), fp2Neg(a[1]), fp2Neg(a[2])];
}

export function fp6Mul(a: Fp6, b: Fp6): Fp6 {
  const [a0, a1, a2] = a;
  const [b0, b1, b2] = b;
  const c0 = fp2Add(fp2Mul(a0, b0), fp2MulByXi(fp2Add(fp2Mul(a1, b2), fp2Mul(a2, b1))));
  const c1 = fp2Add(fp2Add(fp2Mul(a0, b1), fp2Mul(a1, b0)), fp2MulByXi(fp2Mul(a2, b2)));
  const c2 = fp2Add(fp2Add(fp2Mul(a0, b2), fp2Mul(a1, b1)), fp2Mul(a2, b0));
  return [c0, c1, c2];
}

/** Multiplication by v: (a0, a1, a2) ↦ (ξ·a2, a0, a1). */
export function fp6MulByV(a: Fp6): Fp6 {
  return [fp2MulByXi(a[2]), a[0], a[1]];
}

export function fp6Inv(a: Fp6): Fp6 {
  const [a0, a1, a2] = a;
  const t0 = fp2Sub(fp2Sqr(a0), fp2MulByXi(fp2Mul(a1, a2)));
  const t1 = fp2Sub(fp2MulByXi(fp2Sqr(a2)), fp2Mul(a0, a1));
  const t2 = fp2Sub(fp2Sqr(a1), fp2Mul(a0, a2));
  const norm = fp2Add(fp2Mul(a0, t0), fp2MulByXi(fp2Add(fp2Mul(a2, t1), fp2Mul(a1, t2))));
  const normInv = fp2Inv(norm);
  return [fp2Mul(t0, normInv), fp2Mul(t1, normInv), fp2Mul(t2, normInv)];
}

export function fp12Mul(a: Fp12, b: Fp12): Fp12 {
  const t0 = fp6Mul(a[0], b[0]);
  const t1 = fp6Mul(a[1], b[1]);
  const cross = fp6Mul(fp6Add(a[0], a[1]), fp6Add(b[0], b[1]));
  return [fp6Add(t0, fp6MulByV(t1)), fp6Sub(fp6Sub(cross, t0), t1)];
}

/** Complex squaring: (c0 + c1·w)² = (c0 + c1)(c0 + v·c1) − t − v·t + 2t·w with t = c0·c1. */
export function fp12Sqr(a: Fp12): Fp12 {
  const [c0, c1] = a;
  const t = fp6Mul(c0, c1);
  const product = fp6Mul(fp6Add(c0, c1), fp6Add(c0, fp6MulByV(c1)));
  return [fp6Sub(fp6Sub(product, t), fp6MulByV(t)), fp6Add(t, t)];
}

/** a · (l0 + l1·v) for a line coefficient pair in Fp2 (the zero v² term skipped). */
function fp6MulBy01(a: Fp6, l0: Fp2, l1: Fp2): Fp6 {
  const [x0, x1, x2] = a;
  return [
    fp2Add(fp2Mul(x0, l0), fp2MulByXi(fp2Mul(x2, l1))),
    fp2Add(fp2Mul(x0, l1), fp2Mul(x1, l0)),
    fp2Add(fp2Mul(x1, l1), fp2Mul(x2, l0)),
  ];
}

/** a · (k·v) for k in Fp2. */
function fp6MulByVScalar(a: Fp6, k: Fp2): Fp6 {
  const [x0, x1, x2] = a;
  return [fp2MulByXi(fp2Mul(x2, k)), fp2Mul(x0, k), fp2Mul(x1, k)];
}

/**
 * f · ((l0 + l1·v) + (k·v)·w): multiplication by the sparse value of a line function (see
 * pairing.ts), about half the cost of a full Fp12 product.
 */
export function fp12MulByLine(f: Fp12, l0: Fp2, l1: Fp2, k: Fp2): Fp12 {
  const [f0, f1] = f;
  return [fp6Add(fp6MulBy01(f0, l0, l1), fp6MulByV(fp6MulByVScalar(f1, k))), fp6Add(fp6MulByVScalar(f0, k), fp6MulBy01(f1, l0, l1))];
}

/** a^(p⁶): negates the w part. Equals the inverse for elements of the cyclotomic subgroup. */
export function fp12Conj(a: Fp12): Fp12 {
  return [a[0], fp6Neg(a[1])];
}

export function fp12Inv(a: Fp12): Fp12 {
  // (c0 + c1 w)⁻¹ = (c0 − c1 w) / (c0² − v·c1²)
  const denominator = fp6Sub(fp6Mul(a[0], a[0]), fp6MulByV(fp6Mul(a[1], a[1])));
  const t = fp6Inv(denominator);
  return [fp6Mul(a[0], t), fp6Neg(fp6Mul(a[1], t))];
}

export function fp12Eq(a: Fp12, b: Fp12): boolean {
  for (let i = 0; i < 2; i++) {
    for (let j = 0; j < 3; j++) {
      const x = a[i]![j]!;
      const y = b[i]![j]!;
      if (x[0] !== y[0] || x[1] !== y[1]) return false;
    }
  }
  return true;
}

// Frobenius: write a = Σ a_i·w^i (i = 0..5, a_i ∈ Fp2). Then a^p = Σ conj(a_i)·γ_i·w^i with
// γ_i = ξ^(i(p−1)/6), because w^(ip) = w^i·(w⁶)^(i(p−1)/6). The constants are computed once
// here instead of being copied in as opaque hex.
const GAMMA_1 = fp2Pow([1n, 1n], (P - 1n) / 6n);
const GAMMA: readonly Fp2[] = (() => {
  const powers: Fp2[] = [FP2_ONE];
  for (let i = 1; i < 6; i++) powers.push(fp2Mul(powers[i - 1]!, GAMMA_1));
  return powers;
})();

/** a ↦ a^p on Fp12. Coefficient layout: c0 = (w⁰, w², w⁴), c1 = (w¹, w³, w⁵). */
export function fp12Frobenius(a: Fp12): Fp12 {
  const [c0, c1] = a;
  return [
    [fp2Conj(c0[0]), fp2Mul(fp2Conj(c0[1]), GAMMA[2]!), fp2Mul(fp2Conj(c0[2]), GAMMA[4]!)],
    [fp2Mul(fp2Conj(c1[0]), GAMMA[1]!), fp2Mul(fp2Conj(c1[1]), GAMMA[3]!), fp2Mul(fp2Conj(c1[2]), GAMMA[5]!)],
  ];
}
