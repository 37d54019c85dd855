/**
 * The optimal ate pairing of BLS12-381, used only to check the proof-of-possession equation
 * e(pk, H_pop(pk)) = e(g1, proof). Only "is this product of pairings 1?" is ever asked, which
 * lets the final exponentiation use the well-known multiple 3·(p⁴ − p² + 1)/r (see below).
 */
import { ABS_X, fp2Add, fp2Mul, fp2MulFp, fp2Neg, fp2Sqr, fp2Sub, fpNeg } from './field.js';
import { g2Add, g2Double, g2FromAffine, type G1Affine, type G2Affine, type G2Jacobian } from './g2.js';
import { FP12_ONE, fp12Conj, fp12Eq, fp12Frobenius, fp12Inv, fp12Mul, fp12MulByLine, fp12Sqr, type Fp12 } from './tower.js';

const LOOP_BITS = ABS_X.toString(2);

/*
 * Line functions. With T on the twist untwisted to (x·w⁻², y·w⁻³), the line of slope λ through
 * T evaluated at P is yP − λ·xP·w⁻¹ + (λ·xT − yT)·w⁻³. Multiplied by w³ it becomes
 * (λ·xT − yT) + (−λ·xP)·w² + yP·w³ = (l0 + l1·v) + (k·v)·w in the tower: sparse. Any further
 * factor in Fp2 (used below to clear denominators) is also harmless: the final exponentiation
 * maps every element of the subfields Fp2 and Fp4 to 1. T is kept in Jacobian coordinates
 * (x = X/Z², y = Y/Z³), so the loop needs no inversion at all.
 */

/** Tangent at T: λ = 3X²/(2YZ); scaled by 2YZ³: l0 = 3X³ − 2Y², l1 = −3X²Z²·xP, k = 2YZ³·yP. */
function mulByTangent(f: Fp12, t: G2Jacobian, p: G1Affine): Fp12 {
  const xx = fp2Sqr(t.x);
  const threeXX = fp2Add(fp2Add(xx, xx), xx);
  const yy = fp2Sqr(t.y);
  const zz = fp2Sqr(t.z);
  const l0 = fp2Sub(fp2Mul(threeXX, t.x), fp2Add(yy, yy));
  const l1 = fp2Neg(fp2MulFp(fp2Mul(threeXX, zz), p.x));
  const yzzz = fp2Mul(t.y, fp2Mul(zz, t.z));
  const k = fp2MulFp(fp2Add(yzzz, yzzz), p.y);
  return fp12MulByLine(f, l0, l1, k);
}

/**
 * Chord through T and Q (affine): λ = N/D with N = yQ·Z³ − Y, D = (xQ·Z² − X)·Z; the line taken
 * at Q and scaled by D: l0 = N·xQ − D·yQ, l1 = −N·xP, k = D·yP.
 */
function mulByChord(f: Fp12, t: G2Jacobian, q: G2Affine, p: G1Affine): Fp12 {
  const zz = fp2Sqr(t.z);
  const n = fp2Sub(fp2Mul(q.y, fp2Mul(zz, t.z)), t.y);
  const d = fp2Mul(fp2Sub(fp2Mul(q.x, zz), t.x), t.z);
  const l0 = fp2Sub(fp2Mul(n, q.x), fp2Mul(d, q.y));
  const l1 = fp2Neg(fp2MulFp(n, p.x));
  return fp12MulByLine(f, l0, l1, fp2MulFp(d, p.y));
}

/**
 * Product of the Miller loops f_{|x|,Q}(P) over all pairs, sharing the squarings of the
 * accumulator; conjugated at the end because x < 0. T = [k]Q with 1 < k < |x| < r never meets
 * ±Q or infinity, so the chord and tangent never degenerate.
 */
function multiMillerLoop(pairs: readonly (readonly [G1Affine, G2Affine])[]): Fp12 {
  let f = FP12_ONE;
  const ts = pairs.map(([, q]) => g2FromAffine(q));
  for (let i = 1; i < LOOP_BITS.length; i++) {
    f = fp12Sqr(f);
    for (let j = 0; j < pairs.length; j++) {
      const [p, q] = pairs[j]!;
      let t = ts[j]!;
      f = mulByTangent(f, t, p);
      t = g2Double(t);
      if (LOOP_BITS[i] === '1') {
        f = mulByChord(f, t, q, p);
        t = g2Add(t, g2FromAffine(q));
      }
      ts[j] = t;
    }
  }
  return fp12Conj(f);
}

/** a^x for a in the cyclotomic subgroup (x < 0, so conjugate a^|x|). */
function cyclotomicPowX(a: Fp12): Fp12 {
  let result = a;
  for (let i = 1; i < LOOP_BITS.length; i++) {
    result = fp12Sqr(result);
    if (LOOP_BITS[i] === '1') result = fp12Mul(result, a);
  }
  return fp12Conj(result);
}

/**
 * f^(3·(p¹² − 1)/r). Easy part f^((p⁶ − 1)(p² + 1)); hard part via
 * 3·(p⁴ − p² + 1)/r = (x − 1)²·(x + p)·(x² + p² − 1) + 3 (Hayashida–Hayasaka–Teruya).
 * The extra factor 3 is coprime to r, so the result is 1 exactly when the true pairing
 * product is 1.
 */
function finalExponentiation(f: Fp12): Fp12 {
  const f1 = fp12Mul(fp12Conj(f), fp12Inv(f));
  const m = fp12Mul(fp12Frobenius(fp12Frobenius(f1)), f1);
  const a = fp12Mul(cyclotomicPowX(m), fp12Conj(m)); // m^(x−1)
  const b = fp12Mul(cyclotomicPowX(a), fp12Conj(a)); // m^((x−1)²)
  const c = fp12Mul(cyclotomicPowX(b), fp12Frobenius(b)); // b^(x+p)
  const d = fp12Mul(fp12Mul(cyclotomicPowX(cyclotomicPowX(c)), fp12Frobenius(fp12Frobenius(c))), fp12Conj(c)); // c^(x²+p²−1)
  return fp12Mul(d, fp12Mul(fp12Mul(m, m), m));
}

/** True when e(p1, q1) = e(p2, q2). Inputs must be finite points of G1 and G2. */
export function pairingsAreEqual(p1: G1Affine, q1: G2Affine, p2: G1Affine, q2: G2Affine): boolean {
  const minusP2: G1Affine = { x: p2.x, y: fpNeg(p2.y) };
  const product = multiMillerLoop([
    [p1, q1],
    [minusP2, q2],
  ]);
  return fp12Eq(finalExponentiation(product), FP12_ONE);
}
