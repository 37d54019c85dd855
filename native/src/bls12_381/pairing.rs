//! The optimal ate pairing of BLS12-381, reduced to the one question the proof of possession
//! asks: is a product of pairings equal to 1? The Miller loops of all pairs share the squarings
//! of the accumulator, and one final exponentiation serves the whole product.

use super::curve::{Affine, Jacobian};
use super::fp::Fp;
use super::fp2::Fp2;
use super::groups::ABS_X;
use super::tower::Fp12;

/*
 * Line functions. A point T of the twist is carried to E(Fp12) as (x·w⁻², y·w⁻³). The line of
 * slope λ through T, evaluated at P ∈ G1, is yP − λ·xP·w⁻¹ + (λ·xT − yT)·w⁻³; times w³ it is
 * (λ·xT − yT) + (−λ·xP)·w² + yP·w³ = (l0 + l1·v) + (k·v)·w, a sparse Fp12 element. Factors in
 * Fp2 (w³ and the denominators cleared below) vanish in the final exponentiation, which sends
 * every element of a proper subfield to 1; so T stays in Jacobian coordinates and the loop
 * needs no inversion.
 */

/// f · (tangent at T)(P), and T doubled, sharing their squares. λ = 3X²/(2YZ) in Jacobian terms;
/// the line scaled by 2YZ³ is l0 = 3X³ − 2Y², l1 = −3X²Z²·xP, k = 2YZ³·yP. The doubling is
/// dbl-2009-l (as in curve.rs, whose special cases cannot occur here: T is never infinity and
/// E2 has no point of order 2).
fn double_step(f: Fp12, t: &mut Jacobian<Fp2>, p: &Affine<Fp>) -> Fp12 {
    let xx = t.x.square();
    let yy = t.y.square();
    let yyyy = yy.square();
    let zz = t.z.square();
    let three_xx = xx + xx + xx;
    let l0 = three_xx * t.x - yy.double();
    let l1 = -(three_xx * zz).mul_by_fp(p.x);
    let d = ((t.x + yy).square() - xx - yyyy).double();
    let x3 = three_xx.square() - d.double();
    let y3 = three_xx * (d - x3) - yyyy.double().double().double();
    let z3 = (t.y * t.z).double();
    let k = (z3 * zz).mul_by_fp(p.y);
    *t = Jacobian { x: x3, y: y3, z: z3 };
    f.mul_by_line(l0, l1, k)
}

/// f · (chord through T and Q)(P), and T + Q. λ = N/D with N = yQ·Z³ − Y and
/// D = (xQ·Z² − X)·Z; taken at Q and scaled by D: l0 = N·xQ − D·yQ, l1 = −N·xP, k = D·yP.
fn add_step(f: Fp12, t: &mut Jacobian<Fp2>, q: &Affine<Fp2>, p: &Affine<Fp>) -> Fp12 {
    let zz = t.z.square();
    let n = q.y * zz * t.z - t.y;
    let d = (q.x * zz - t.x) * t.z;
    let l0 = n * q.x - d * q.y;
    let l1 = -n.mul_by_fp(p.x);
    let k = d.mul_by_fp(p.y);
    *t = t.add_point(q.to_jacobian());
    f.mul_by_line(l0, l1, k)
}

/// Π f_{|x|,Q}(P) over the pairs, conjugated because x < 0. T = [k]Q with 1 < k < |x| < r never
/// meets ±Q or infinity, so neither step degenerates (inputs are finite points of G1 and G2).
pub(crate) fn multi_miller_loop(pairs: &[(Affine<Fp>, Affine<Fp2>)]) -> Fp12 {
    let mut f = Fp12::ONE;
    let mut ts: Vec<Jacobian<Fp2>> = pairs.iter().map(|(_, q)| q.to_jacobian()).collect();
    let top = 63 - ABS_X.leading_zeros();
    for bit in (0..top).rev() {
        f = f.square();
        for ((p, q), t) in pairs.iter().zip(ts.iter_mut()) {
            f = double_step(f, t, p);
            if (ABS_X >> bit) & 1 == 1 {
                f = add_step(f, t, q, p);
            }
        }
    }
    f.conjugate()
}

/// a^x for a in the cyclotomic subgroup (x < 0: a^|x| conjugated).
fn cyclotomic_pow_x(a: Fp12) -> Fp12 {
    let top = 63 - ABS_X.leading_zeros();
    let mut result = a;
    for bit in (0..top).rev() {
        result = result.cyclotomic_square();
        if (ABS_X >> bit) & 1 == 1 {
            result = result * a;
        }
    }
    result.conjugate()
}

/// f^(3·(p¹² − 1)/r). The easy part f^((p⁶ − 1)(p² + 1)) lands in the cyclotomic subgroup; the
/// hard part uses 3·(p⁴ − p² + 1)/r = (x − 1)²·(x + p)·(x² + p² − 1) + 3 (Hayashida, Hayasaka
/// and Teruya, ePrint 2020/875). The factor 3 is prime to r, so the result is 1 exactly when the
/// reduced pairing value is.
pub(crate) fn final_exponentiation(f: Fp12) -> Fp12 {
    let f1 = f.conjugate() * f.invert();
    let m = f1.frobenius().frobenius() * f1;
    let a = cyclotomic_pow_x(m) * m.conjugate(); // m^(x−1)
    let b = cyclotomic_pow_x(a) * a.conjugate(); // m^((x−1)²)
    let c = cyclotomic_pow_x(b) * b.frobenius(); // b^(x+p)
    let d = cyclotomic_pow_x(cyclotomic_pow_x(c)) * c.frobenius().frobenius() * c.conjugate(); // c^(x²+p²−1)
    d * m.cyclotomic_square() * m
}

/// True when Π e(P_i, Q_i) = 1. Every point must be a finite point of its group.
pub fn pairing_product_is_one(pairs: &[(Affine<Fp>, Affine<Fp2>)]) -> bool {
    final_exponentiation(multi_miller_loop(pairs)) == Fp12::ONE
}
