//! Fp2 = Fp[u]/(u² + 1), the field of the G2 coordinates.

use super::fp::{pow_limbs, Fp, MODULUS};
use std::ops::{Add, Mul, Neg, Sub};

/// c0 + c1·u.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fp2 {
    pub c0: Fp,
    pub c1: Fp,
}

impl Fp2 {
    pub const ZERO: Fp2 = Fp2 { c0: Fp::ZERO, c1: Fp::ZERO };
    pub const ONE: Fp2 = Fp2 { c0: Fp::ONE, c1: Fp::ZERO };

    pub const fn new(c0: Fp, c1: Fp) -> Fp2 {
        Fp2 { c0, c1 }
    }

    pub fn from_u64s(c0: u64, c1: u64) -> Fp2 {
        Fp2::new(Fp::from_u64(c0), Fp::from_u64(c1))
    }

    pub fn is_zero(self) -> bool {
        self.c0.is_zero() && self.c1.is_zero()
    }

    /// (a0 + a1 u)² = (a0 + a1)(a0 − a1) + 2·a0·a1·u: two base products.
    #[inline]
    pub fn square(self) -> Fp2 {
        let product = self.c0 * self.c1;
        Fp2::new((self.c0 + self.c1) * (self.c0 - self.c1), product.double())
    }

    pub fn double(self) -> Fp2 {
        self + self
    }

    pub fn mul_by_fp(self, k: Fp) -> Fp2 {
        Fp2::new(self.c0 * k, self.c1 * k)
    }

    /// Multiplication by ξ = 1 + u, the non-residue that defines Fp6 (and the twist).
    #[inline]
    pub fn mul_by_xi(self) -> Fp2 {
        Fp2::new(self.c0 - self.c1, self.c0 + self.c1)
    }

    /// a ↦ a^p, which on Fp2 is conjugation.
    pub fn conjugate(self) -> Fp2 {
        Fp2::new(self.c0, -self.c1)
    }

    /// The inverse through the norm a0² + a1²; zero maps to zero.
    pub fn invert(self) -> Fp2 {
        let norm_inverse = (self.c0.square() + self.c1.square()).invert();
        Fp2::new(self.c0 * norm_inverse, -(self.c1 * norm_inverse))
    }

    /// self^exponent (limbs least significant first).
    pub fn pow(self, exponent: &[u64]) -> Fp2 {
        pow_limbs(self, Fp2::ONE, exponent)
    }

    /// A square root when there is one, through the norm n = sqrt(a0² + a1²) in Fp (a is a square
    /// in Fp2 exactly when its norm is one in Fp). With δ = (a0 + n)/2 and t = δ^((p−3)/4): if δ
    /// is a square, x0 = δ·t is its root, 1/x0 = t, and the root is x0 + (a1·t/2)·u; otherwise
    /// x0² = −δ, t² = −1/δ, and the root is a1·t/2 − δ·t·u (the other sign of n). Two base-field
    /// exponentiations and no inversion; the result is squared once to confirm it.
    pub fn sqrt(self) -> Option<Fp2> {
        if self.c1.is_zero() {
            // a0 is a square in Fp (root in Fp) or −a0 is (root in u·Fp): p ≡ 3 mod 4.
            return match self.c0.sqrt() {
                Some(root) => Some(Fp2::new(root, Fp::ZERO)),
                None => (-self.c0).sqrt().map(|root| Fp2::new(Fp::ZERO, root)),
            };
        }
        let norm_root = (self.c0.square() + self.c1.square()).sqrt()?;
        let delta = (self.c0 + norm_root) * Fp::HALF;
        let t = delta.pow_p_minus_3_div_4();
        let x0 = delta * t;
        let half_a1_t = self.c1 * Fp::HALF * t;
        let root = if x0.square() == delta { Fp2::new(x0, half_a1_t) } else { Fp2::new(half_a1_t, -x0) };
        (root.square() == self).then_some(root)
    }

    /// sgn0 of RFC 9380 §4.1 for m = 2.
    pub fn sgn0(self) -> bool {
        let sign0 = self.c0.sgn0();
        sign0 || (self.c0.is_zero() && self.c1.sgn0())
    }

    /// The ZCash sort bit for G2: c1 decides unless it is zero, then c0.
    pub fn is_lexicographically_largest(self) -> bool {
        if self.c1.is_zero() {
            self.c0.is_lexicographically_largest()
        } else {
            self.c1.is_lexicographically_largest()
        }
    }
}

/// (p − 1)/2 and friends as exponents for the Frobenius constants.
pub(crate) fn modulus_minus_one_divided_by(divisor: u64) -> [u64; 6] {
    let mut value = MODULUS;
    value[0] -= 1;
    let mut out = [0u64; 6];
    let mut remainder: u128 = 0;
    for i in (0..6).rev() {
        let current = (remainder << 64) | value[i] as u128;
        out[i] = (current / divisor as u128) as u64;
        remainder = current % divisor as u128;
    }
    debug_assert_eq!(remainder, 0);
    out
}

impl Add for Fp2 {
    type Output = Fp2;
    #[inline]
    fn add(self, other: Fp2) -> Fp2 {
        Fp2::new(self.c0 + other.c0, self.c1 + other.c1)
    }
}

impl Sub for Fp2 {
    type Output = Fp2;
    #[inline]
    fn sub(self, other: Fp2) -> Fp2 {
        Fp2::new(self.c0 - other.c0, self.c1 - other.c1)
    }
}

impl Neg for Fp2 {
    type Output = Fp2;
    #[inline]
    fn neg(self) -> Fp2 {
        Fp2::new(-self.c0, -self.c1)
    }
}

impl Mul for Fp2 {
    type Output = Fp2;
    /// Karatsuba: three base products. (Combining the unreduced 768-bit products before one
    /// reduction per component was tried and measured no faster here.)
    #[inline]
    fn mul(self, other: Fp2) -> Fp2 {
        let t0 = self.c0 * other.c0;
        let t1 = self.c1 * other.c1;
        let cross = (self.c0 + self.c1) * (other.c0 + other.c1);
        Fp2::new(t0 - t1, cross - t0 - t1)
    }
}

assign_operators!(Fp2);

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bls12_381::fp::tests::sample;

    pub(crate) fn sample2(seed: u64) -> Fp2 {
        Fp2::new(sample(seed), sample(seed ^ 0xffff))
    }

    #[test]
    fn u_squared_is_minus_one() {
        let u = Fp2::from_u64s(0, 1);
        assert_eq!(u.square(), -Fp2::ONE);
        assert_eq!(u * u, -Fp2::ONE);
    }

    #[test]
    fn field_identities_hold() {
        for seed in 0..40 {
            let (a, b, c) = (sample2(seed), sample2(seed + 100), sample2(seed + 200));
            assert_eq!(a * (b + c), a * b + a * c);
            assert_eq!(a.square(), a * a);
            assert_eq!(a * a.invert(), Fp2::ONE);
            assert_eq!(a.mul_by_xi(), a * Fp2::from_u64s(1, 1));
            let root = a.square().sqrt().expect("a square has a root");
            assert!(root == a || root == -a);
            // Half of all elements are non-squares; sqrt must say so rather than lie.
            if let Some(root) = b.sqrt() {
                assert_eq!(root.square(), b);
            }
        }
    }

    #[test]
    fn roots_of_elements_of_the_base_field() {
        for seed in 0..20 {
            let a = Fp2::new(sample(seed), Fp::ZERO);
            let root = a.sqrt().expect("every element of Fp is a square in Fp2");
            assert_eq!(root.square(), a);
        }
    }

    #[test]
    fn frobenius_is_conjugation() {
        let a = sample2(7);
        assert_eq!(a.pow(&MODULUS), a.conjugate());
    }
}
