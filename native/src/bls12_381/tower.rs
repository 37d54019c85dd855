//! The extension tower of the pairing: Fp6 = Fp2[v]/(v³ − ξ) and Fp12 = Fp6[w]/(w² − v) with
//! ξ = 1 + u, so w⁶ = ξ. An Fp12 element c0 + c1·w thus has Fp2 coefficients on w⁰…w⁵ laid out
//! as c0 = (w⁰, w², w⁴) and c1 = (w¹, w³, w⁵).

use super::fp2::{modulus_minus_one_divided_by, Fp2};
use std::ops::{Add, Mul, Neg, Sub};
use std::sync::OnceLock;

/// c0 + c1·v + c2·v².
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fp6 {
    pub c0: Fp2,
    pub c1: Fp2,
    pub c2: Fp2,
}

impl Fp6 {
    pub const ZERO: Fp6 = Fp6 { c0: Fp2::ZERO, c1: Fp2::ZERO, c2: Fp2::ZERO };
    pub const ONE: Fp6 = Fp6 { c0: Fp2::ONE, c1: Fp2::ZERO, c2: Fp2::ZERO };

    /// Multiplication by v: (c0, c1, c2) ↦ (ξ·c2, c0, c1).
    #[inline]
    pub fn mul_by_v(self) -> Fp6 {
        Fp6 { c0: self.c2.mul_by_xi(), c1: self.c0, c2: self.c1 }
    }

    /// self · (b0 + b1·v): a line coefficient with no v² term (five Fp2 products).
    #[inline]
    pub fn mul_by_01(self, b0: Fp2, b1: Fp2) -> Fp6 {
        let t0 = self.c0 * b0;
        let t1 = self.c1 * b1;
        Fp6 {
            c0: (self.c2 * b1).mul_by_xi() + t0,
            c1: (self.c0 + self.c1) * (b0 + b1) - t0 - t1,
            c2: self.c2 * b0 + t1,
        }
    }

    /// self · (b1·v) (three Fp2 products).
    #[inline]
    pub fn mul_by_1(self, b1: Fp2) -> Fp6 {
        Fp6 { c0: (self.c2 * b1).mul_by_xi(), c1: self.c0 * b1, c2: self.c1 * b1 }
    }

    pub fn square(self) -> Fp6 {
        self * self
    }

    pub fn invert(self) -> Fp6 {
        let t0 = self.c0.square() - (self.c1 * self.c2).mul_by_xi();
        let t1 = self.c2.square().mul_by_xi() - self.c0 * self.c1;
        let t2 = self.c1.square() - self.c0 * self.c2;
        let norm = self.c0 * t0 + (self.c2 * t1 + self.c1 * t2).mul_by_xi();
        let norm_inverse = norm.invert();
        Fp6 { c0: t0 * norm_inverse, c1: t1 * norm_inverse, c2: t2 * norm_inverse }
    }
}

impl Add for Fp6 {
    type Output = Fp6;
    #[inline]
    fn add(self, other: Fp6) -> Fp6 {
        Fp6 { c0: self.c0 + other.c0, c1: self.c1 + other.c1, c2: self.c2 + other.c2 }
    }
}

impl Sub for Fp6 {
    type Output = Fp6;
    #[inline]
    fn sub(self, other: Fp6) -> Fp6 {
        Fp6 { c0: self.c0 - other.c0, c1: self.c1 - other.c1, c2: self.c2 - other.c2 }
    }
}

impl Neg for Fp6 {
    type Output = Fp6;
    #[inline]
    fn neg(self) -> Fp6 {
        Fp6 { c0: -self.c0, c1: -self.c1, c2: -self.c2 }
    }
}

impl Mul for Fp6 {
    type Output = Fp6;
    /// Karatsuba over the three coefficients: six Fp2 products.
    #[inline]
    fn mul(self, other: Fp6) -> Fp6 {
        let t0 = self.c0 * other.c0;
        let t1 = self.c1 * other.c1;
        let t2 = self.c2 * other.c2;
        Fp6 {
            c0: ((self.c1 + self.c2) * (other.c1 + other.c2) - t1 - t2).mul_by_xi() + t0,
            c1: (self.c0 + self.c1) * (other.c0 + other.c1) - t0 - t1 + t2.mul_by_xi(),
            c2: (self.c0 + self.c2) * (other.c0 + other.c2) - t0 - t2 + t1,
        }
    }
}

/// c0 + c1·w.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fp12 {
    pub c0: Fp6,
    pub c1: Fp6,
}

impl Fp12 {
    pub const ONE: Fp12 = Fp12 { c0: Fp6::ONE, c1: Fp6::ZERO };

    /// (c0 + c1·w)² = (c0 + c1)(c0 + v·c1) − t − v·t + 2t·w with t = c0·c1: two Fp6 products.
    pub fn square(self) -> Fp12 {
        let t = self.c0 * self.c1;
        let product = (self.c0 + self.c1) * (self.c0 + self.c1.mul_by_v());
        Fp12 { c0: product - t - t.mul_by_v(), c1: t + t }
    }

    /// self · ((l0 + l1·v) + (k·v)·w), the sparse value of a line function (see pairing.rs).
    #[inline]
    pub fn mul_by_line(self, l0: Fp2, l1: Fp2, k: Fp2) -> Fp12 {
        let a = self.c0.mul_by_01(l0, l1);
        let b = self.c1.mul_by_1(k);
        let cross = (self.c0 + self.c1).mul_by_01(l0, l1 + k);
        Fp12 { c0: a + b.mul_by_v(), c1: cross - a - b }
    }

    /// self^(p⁶): negates the w part; the inverse for elements of the cyclotomic subgroup.
    pub fn conjugate(self) -> Fp12 {
        Fp12 { c0: self.c0, c1: -self.c1 }
    }

    /// (c0 + c1·w)⁻¹ = (c0 − c1·w)/(c0² − v·c1²).
    pub fn invert(self) -> Fp12 {
        let t = (self.c0.square() - self.c1.square().mul_by_v()).invert();
        Fp12 { c0: self.c0 * t, c1: -(self.c1 * t) }
    }

    /// self^p: each Fp2 coefficient a_i of w^i becomes conj(a_i)·γ_i, γ_i = ξ^(i(p−1)/6),
    /// because (w^i)^p = w^i·(w⁶)^(i(p−1)/6).
    pub fn frobenius(self) -> Fp12 {
        let gamma = frobenius_constants();
        Fp12 {
            c0: Fp6 {
                c0: self.c0.c0.conjugate(),
                c1: self.c0.c1.conjugate() * gamma[2],
                c2: self.c0.c2.conjugate() * gamma[4],
            },
            c1: Fp6 {
                c0: self.c1.c0.conjugate() * gamma[1],
                c1: self.c1.c1.conjugate() * gamma[3],
                c2: self.c1.c2.conjugate() * gamma[5],
            },
        }
    }

    /// The square of an element of the cyclotomic subgroup (norm 1 over Fp6 and over Fp4), after
    /// Granger and Scott, "Faster squaring in the cyclotomic subgroup of sixth degree
    /// extensions" (PKC 2010): Fp12 seen as Fp4³ with Fp4 = Fp2[s]/(s² − ξ), s = w³, each of the
    /// three Fp4 parts squared at the cost of two Fp2 squarings and one product.
    pub fn cyclotomic_square(self) -> Fp12 {
        // (w⁰, w³), (w¹, w⁴) and (w², w⁵) each form an element a + b·s of Fp4; the square's
        // coefficients come from the three Fp4 squares, corrected by the old ones (3·z² − 2·z̄
        // for the a parts, 3·z² + 2·z for the b parts, in the paper's notation).
        let (w0, w1, w2) = (self.c0.c0, self.c1.c0, self.c0.c1);
        let (w3, w4, w5) = (self.c1.c1, self.c0.c2, self.c1.c2);
        let (s0, t0) = fp4_square(w0, w3);
        let (s1, t1) = fp4_square(w1, w4);
        let (s2, t2) = fp4_square(w2, w5);
        let minus = |square: Fp2, old: Fp2| (square - old).double() + square;
        let plus = |square: Fp2, old: Fp2| (square + old).double() + square;
        Fp12 {
            c0: Fp6 { c0: minus(s0, w0), c1: minus(s1, w2), c2: minus(s2, w4) },
            c1: Fp6 { c0: plus(t2.mul_by_xi(), w1), c1: plus(t0, w3), c2: plus(t1, w5) },
        }
    }
}

/// (a + b·s)² in Fp4 = Fp2[s]/(s² − ξ): (a² + ξ·b², 2ab), the latter as (a + b)² − a² − b².
#[inline]
fn fp4_square(a: Fp2, b: Fp2) -> (Fp2, Fp2) {
    let aa = a.square();
    let bb = b.square();
    (aa + bb.mul_by_xi(), (a + b).square() - aa - bb)
}

/// γ_i = ξ^(i(p−1)/6) for i = 0…5, computed once rather than copied in as opaque constants.
fn frobenius_constants() -> &'static [Fp2; 6] {
    static GAMMA: OnceLock<[Fp2; 6]> = OnceLock::new();
    GAMMA.get_or_init(|| {
        let gamma1 = Fp2::from_u64s(1, 1).pow(&modulus_minus_one_divided_by(6));
        let mut powers = [Fp2::ONE; 6];
        for i in 1..6 {
            powers[i] = powers[i - 1] * gamma1;
        }
        powers
    })
}

impl Mul for Fp12 {
    type Output = Fp12;
    /// Karatsuba: three Fp6 products.
    fn mul(self, other: Fp12) -> Fp12 {
        let t0 = self.c0 * other.c0;
        let t1 = self.c1 * other.c1;
        let cross = (self.c0 + self.c1) * (other.c0 + other.c1);
        Fp12 { c0: t0 + t1.mul_by_v(), c1: cross - t0 - t1 }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bls12_381::fp::{pow_limbs, MODULUS};
    use crate::bls12_381::fp2::tests::sample2;

    pub(crate) fn sample12(seed: u64) -> Fp12 {
        let six = |s: u64| Fp6 { c0: sample2(s), c1: sample2(s + 1), c2: sample2(s + 2) };
        Fp12 { c0: six(seed * 10), c1: six(seed * 10 + 5) }
    }

    #[test]
    fn products_agree_with_their_special_forms() {
        for seed in 0..10 {
            let (a, b) = (sample12(seed), sample12(seed + 50));
            assert_eq!(a.square(), a * a);
            assert_eq!(a * a.invert(), Fp12::ONE);
            let (l0, l1, k) = (sample2(seed + 7), sample2(seed + 8), sample2(seed + 9));
            let line =
                Fp12 { c0: Fp6 { c0: l0, c1: l1, c2: Fp2::ZERO }, c1: Fp6 { c0: Fp2::ZERO, c1: k, c2: Fp2::ZERO } };
            assert_eq!(a.mul_by_line(l0, l1, k), a * line);
            assert_eq!((a * b).c0.invert() * (a * b).c0, Fp6::ONE);
        }
    }

    #[test]
    fn frobenius_is_the_p_th_power() {
        let a = sample12(3);
        assert_eq!(a.frobenius(), pow_limbs(a, Fp12::ONE, &MODULUS));
    }

    #[test]
    fn cyclotomic_square_matches_the_square_in_the_subgroup() {
        for seed in 0..5 {
            let f = sample12(seed);
            // f^((p⁶ − 1)(p² + 1)) lies in the cyclotomic subgroup.
            let g = f.conjugate() * f.invert();
            let g = g.frobenius().frobenius() * g;
            assert_eq!(g.cyclotomic_square(), g.square());
        }
    }
}
