//! The base field Fp of BLS12-381, p = 0x1a0111ea…ffffaaab (381 bits), as six 64-bit limbs in
//! Montgomery form (a·2³⁸⁴ mod p), multiplied with the CIOS method (coarsely integrated operand
//! scanning: one reduction step per word of the multiplier). Nothing here is constant time: the
//! crate only verifies, and every input it sees is public.

#![allow(clippy::needless_range_loop, clippy::suspicious_arithmetic_impl)] // limb loops read best indexed

use std::ops::{Add, Mul, Neg, Sub};

/// p, least significant limb first.
pub const MODULUS: [u64; 6] = [
    0xb9feffffffffaaab,
    0x1eabfffeb153ffff,
    0x6730d2a0f6b0f624,
    0x64774b84f38512bf,
    0x4b1ba7b6434bacd7,
    0x1a0111ea397fe69a,
];

/// 2³⁸⁴ mod p: one in Montgomery form.
const R: [u64; 6] = [
    0x760900000002fffd,
    0xebf4000bc40c0002,
    0x5f48985753c758ba,
    0x77ce585370525745,
    0x5c071a97a256ec6d,
    0x15f65ec3fa80e493,
];

/// 2⁷⁶⁸ mod p: multiplying by it converts into Montgomery form.
const R2: [u64; 6] = [
    0xf4df1f341c341746,
    0x0a76e6a609d104f1,
    0x8de5476c4c95b6d5,
    0x67eb88a9939d83c0,
    0x9a793e85b519952d,
    0x11988fe592cae3aa,
];

/// −p⁻¹ mod 2⁶⁴.
const INV: u64 = 0x89f3fffcfffcfffd;

#[inline(always)]
fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

#[inline(always)]
fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = (a as u128).wrapping_sub(b as u128 + (borrow >> 63) as u128);
    (t as u64, (t >> 64) as u64)
}

/// a + b·c + carry, as (low, high).
#[inline(always)]
fn mac(a: u64, b: u64, c: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + (b as u128) * (c as u128) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// a − b on six limbs, with the final borrow (all ones when a < b).
#[inline(always)]
fn sub_limbs(a: &[u64; 6], b: &[u64; 6]) -> ([u64; 6], u64) {
    let mut out = [0u64; 6];
    let mut borrow = 0;
    for i in 0..6 {
        (out[i], borrow) = sbb(a[i], b[i], borrow);
    }
    (out, borrow)
}

/// True when a < b as 384-bit integers.
pub fn limbs_less_than(a: &[u64; 6], b: &[u64; 6]) -> bool {
    sub_limbs(a, b).1 != 0
}

/// An element of Fp in Montgomery form, always fully reduced (< p).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fp(pub(crate) [u64; 6]);

impl Fp {
    pub const ZERO: Fp = Fp([0; 6]);
    pub const ONE: Fp = Fp(R);
    /// 1/2 = (p + 1)/2, in Montgomery form.
    pub const HALF: Fp = Fp([
        0x1804000000015554,
        0x855000053ab00001,
        0x633cb57c253c276f,
        0x6e22d1ec31ebb502,
        0xd3916126f2d14ca2,
        0x17fbb8571a006596,
    ]);

    /// The canonical integer `limbs` (least significant first), or None when it is not below p.
    pub fn from_limbs(limbs: [u64; 6]) -> Option<Fp> {
        if !limbs_less_than(&limbs, &MODULUS) {
            return None;
        }
        Some(Fp(limbs) * Fp(R2))
    }

    /// A small integer.
    pub fn from_u64(value: u64) -> Fp {
        Fp::from_limbs([value, 0, 0, 0, 0, 0]).expect("below p")
    }

    /// The 48-byte big-endian encoding of an integer below p; None when it is p or more.
    pub fn from_bytes_be(bytes: &[u8; 48]) -> Option<Fp> {
        Fp::from_limbs(bytes_to_limbs(bytes))
    }

    /// The integer (not Montgomery form), least significant limb first.
    pub fn to_limbs(self) -> [u64; 6] {
        montgomery_reduce(&[self.0[0], self.0[1], self.0[2], self.0[3], self.0[4], self.0[5], 0, 0, 0, 0, 0, 0])
    }

    pub fn to_bytes_be(self) -> [u8; 48] {
        let limbs = self.to_limbs();
        let mut out = [0u8; 48];
        for (i, limb) in limbs.iter().enumerate() {
            out[40 - 8 * i..48 - 8 * i].copy_from_slice(&limb.to_be_bytes());
        }
        out
    }

    /// A 64-byte big-endian integer reduced mod p (hash_to_field's OS2IP(tv) mod p): the value is
    /// hi·2²⁵⁶ + lo with both halves below 2²⁵⁶ < p, so no wide reduction is needed.
    pub fn from_bytes_be_wide(bytes: &[u8; 64]) -> Fp {
        let half = |part: &[u8]| {
            let mut padded = [0u8; 48];
            padded[16..].copy_from_slice(part);
            Fp::from_bytes_be(&padded).expect("a 256-bit integer is below p")
        };
        let two_256 = Fp::from_limbs([0, 0, 0, 0, 1, 0]).expect("2^256 is below p");
        half(&bytes[..32]) * two_256 + half(&bytes[32..])
    }

    pub fn is_zero(self) -> bool {
        self.0 == [0; 6]
    }

    pub fn square(self) -> Fp {
        self * self
    }

    pub fn double(self) -> Fp {
        self + self
    }

    /// self^exponent, the exponent as limbs (least significant first).
    pub fn pow(self, exponent: &[u64]) -> Fp {
        pow_limbs(self, Fp::ONE, exponent)
    }

    /// The inverse (Fermat: self^(p−2)); zero maps to zero, callers check first.
    pub fn invert(self) -> Fp {
        self.pow(&constants().p_minus_2)
    }

    /// A square root when there is one (p ≡ 3 mod 4, so it is self^((p+1)/4)).
    pub fn sqrt(self) -> Option<Fp> {
        let root = self.pow(&constants().p_plus_1_div_4);
        (root.square() == self).then_some(root)
    }

    /// self^((p−3)/4): for a square, its root times its inverse root (see Fp2::sqrt).
    pub fn pow_p_minus_3_div_4(self) -> Fp {
        self.pow(&constants().p_minus_3_div_4)
    }

    /// True when the canonical value exceeds (p−1)/2: the "lexicographically largest" of a pair
    /// ±y in the ZCash point encoding.
    pub fn is_lexicographically_largest(self) -> bool {
        limbs_less_than(&constants().p_minus_1_div_2, &self.to_limbs())
    }

    /// sgn0 of RFC 9380 §4.1: the parity of the canonical value.
    pub fn sgn0(self) -> bool {
        self.to_limbs()[0] & 1 == 1
    }
}

/// base^exponent with a fixed 4-bit window (the exponent as limbs, least significant first): a
/// product per four squarings instead of one per set bit, which saves about a fifth of an
/// inversion or square root in Fp. For every field of the tower.
pub(crate) fn pow_limbs<T: Copy + Mul<Output = T>>(base: T, one: T, exponent: &[u64]) -> T {
    let mut table = [one; 16];
    for i in 1..16 {
        table[i] = table[i - 1] * base;
    }
    let mut result = one;
    for limb in exponent.iter().rev() {
        for shift in (0..64).step_by(4).rev() {
            for _ in 0..4 {
                result = result * result;
            }
            let digit = ((limb >> shift) & 0xf) as usize;
            if digit != 0 {
                result = result * table[digit];
            }
        }
    }
    result
}

/// Exponents derived from p, computed once.
struct Constants {
    p_minus_2: [u64; 6],
    p_plus_1_div_4: [u64; 6],
    p_minus_3_div_4: [u64; 6],
    p_minus_1_div_2: [u64; 6],
}

fn constants() -> &'static Constants {
    static CONSTANTS: std::sync::OnceLock<Constants> = std::sync::OnceLock::new();
    CONSTANTS.get_or_init(|| {
        let mut p_minus_2 = MODULUS;
        p_minus_2[0] -= 2; // the low limb of p is odd and far above 2
        let mut p_plus_1 = MODULUS;
        p_plus_1[0] += 1; // no carry: the low limb is not all ones
        let mut p_minus_1 = MODULUS;
        p_minus_1[0] -= 1;
        let mut p_minus_3 = MODULUS;
        p_minus_3[0] -= 3;
        Constants {
            p_minus_2,
            p_plus_1_div_4: shift_right(p_plus_1, 2),
            p_minus_3_div_4: shift_right(p_minus_3, 2),
            p_minus_1_div_2: shift_right(p_minus_1, 1),
        }
    })
}

fn shift_right(limbs: [u64; 6], bits: u32) -> [u64; 6] {
    let mut out = [0u64; 6];
    for i in 0..6 {
        out[i] = limbs[i] >> bits;
        if i < 5 {
            out[i] |= limbs[i + 1] << (64 - bits);
        }
    }
    out
}

/// Big-endian bytes to limbs, least significant first.
pub fn bytes_to_limbs(bytes: &[u8; 48]) -> [u64; 6] {
    let mut limbs = [0u64; 6];
    for (i, limb) in limbs.iter_mut().enumerate() {
        let start = 40 - 8 * i;
        *limb = u64::from_be_bytes(bytes[start..start + 8].try_into().expect("8 bytes"));
    }
    limbs
}

/// a + b without reduction (for operands whose sum fits in 384 bits).
#[inline(always)]
fn add_limbs(a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
    let mut sum = [0u64; 6];
    let mut carry = 0;
    for i in 0..6 {
        (sum[i], carry) = adc(a[i], b[i], carry);
    }
    sum
}

/// t·2⁻³⁸⁴ mod p for a 768-bit t below p·2³⁸⁴.
fn montgomery_reduce(t: &[u64; 12]) -> [u64; 6] {
    let mut t = *t;
    let mut carry_out = 0u64;
    for i in 0..6 {
        let m = t[i].wrapping_mul(INV);
        let mut carry = 0;
        for j in 0..6 {
            (t[i + j], carry) = mac(t[i + j], m, MODULUS[j], carry);
        }
        let (sum, c) = adc(t[i + 6], carry, carry_out);
        t[i + 6] = sum;
        carry_out = c;
    }
    let result = [t[6], t[7], t[8], t[9], t[10], t[11]];
    reduce_once(result)
}

/// Subtracts p when the value is p or more (inputs below 2p).
#[inline(always)]
fn reduce_once(value: [u64; 6]) -> [u64; 6] {
    // Selected with a mask rather than a branch: which way it goes is a coin toss for the
    // predictor, and additions are as frequent as products in the tower.
    let (reduced, borrow) = sub_limbs(&value, &MODULUS);
    let mut out = [0u64; 6];
    for i in 0..6 {
        out[i] = (value[i] & borrow) | (reduced[i] & !borrow);
    }
    out
}

impl Add for Fp {
    type Output = Fp;
    #[inline]
    fn add(self, other: Fp) -> Fp {
        // p < 2³⁸², so the sum of two reduced values never carries out of six limbs.
        Fp(reduce_once(add_limbs(&self.0, &other.0)))
    }
}

impl Sub for Fp {
    type Output = Fp;
    #[inline]
    fn sub(self, other: Fp) -> Fp {
        // On a borrow, add p back (masked in, not branched on: see reduce_once).
        let (difference, borrow) = sub_limbs(&self.0, &other.0);
        let mut out = [0u64; 6];
        let mut carry = 0;
        for i in 0..6 {
            (out[i], carry) = adc(difference[i], MODULUS[i] & borrow, carry);
        }
        Fp(out)
    }
}

impl Neg for Fp {
    type Output = Fp;
    #[inline]
    fn neg(self) -> Fp {
        // p − a, masked to zero for a = 0 (which must stay 0, not become p).
        let nonzero = ((self.0.iter().fold(0, |acc, limb| acc | limb) != 0) as u64).wrapping_neg();
        let (difference, _) = sub_limbs(&MODULUS, &self.0);
        let mut out = [0u64; 6];
        for i in 0..6 {
            out[i] = difference[i] & nonzero;
        }
        Fp(out)
    }
}

impl Mul for Fp {
    type Output = Fp;
    /// CIOS Montgomery multiplication, self·other·2⁻³⁸⁴ mod p, in the form that needs no
    /// carry word: the top limb of p is below 2⁶³ − 1, so the running sum of a row never
    /// exceeds six limbs and the two carries of a row meet only at its end.
    #[inline]
    fn mul(self, other: Fp) -> Fp {
        let a = &self.0;
        let b = &other.0;
        let mut t = [0u64; 6];
        for i in 0..6 {
            let (low, mut product_carry) = mac(t[0], a[0], b[i], 0);
            let m = low.wrapping_mul(INV);
            let (_, mut reduce_carry) = mac(low, m, MODULUS[0], 0);
            for j in 1..6 {
                let (sum, carry) = mac(t[j], a[j], b[i], product_carry);
                product_carry = carry;
                (t[j - 1], reduce_carry) = mac(sum, m, MODULUS[j], reduce_carry);
            }
            t[5] = reduce_carry.wrapping_add(product_carry);
        }
        Fp(reduce_once(t))
    }
}

assign_operators!(Fp);

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A deterministic stream of field elements for the algebraic identities below.
    pub(crate) fn sample(seed: u64) -> Fp {
        let mut state = seed.wrapping_mul(0x9e3779b97f4a7c15) ^ 0x2545f4914f6cdd1d;
        let mut bytes = [0u8; 64];
        for chunk in bytes.chunks_exact_mut(8) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            chunk.copy_from_slice(&state.to_le_bytes());
        }
        Fp::from_bytes_be_wide(&bytes)
    }

    #[test]
    fn one_and_small_integers_round_trip() {
        assert_eq!(Fp::ONE.to_limbs(), [1, 0, 0, 0, 0, 0]);
        assert_eq!((Fp::from_u64(6) * Fp::from_u64(7)).to_limbs(), [42, 0, 0, 0, 0, 0]);
        assert_eq!((Fp::from_u64(3) - Fp::from_u64(5) + Fp::from_u64(2)), Fp::ZERO);
    }

    #[test]
    fn half_is_the_inverse_of_two() {
        assert_eq!(Fp::HALF, Fp::from_u64(2).invert());
    }

    #[test]
    fn p_minus_one_squared_is_one() {
        let minus_one = -Fp::ONE;
        let mut expected = MODULUS;
        expected[0] -= 1;
        assert_eq!(minus_one.to_limbs(), expected);
        assert_eq!(minus_one.square(), Fp::ONE);
    }

    #[test]
    fn rejects_non_canonical_encodings() {
        let mut bytes = [0u8; 48];
        for (i, limb) in MODULUS.iter().enumerate() {
            bytes[40 - 8 * i..48 - 8 * i].copy_from_slice(&limb.to_be_bytes());
        }
        assert!(Fp::from_bytes_be(&bytes).is_none());
        bytes[47] -= 1;
        assert_eq!(Fp::from_bytes_be(&bytes).expect("p - 1"), -Fp::ONE);
    }

    #[test]
    fn field_identities_hold() {
        for seed in 0..50 {
            let (a, b, c) = (sample(seed), sample(seed + 1000), sample(seed + 2000));
            assert_eq!(a * (b + c), a * b + a * c);
            assert_eq!((a - b) + b, a);
            assert_eq!(a + (-a), Fp::ZERO);
            assert_eq!(Fp::from_bytes_be(&a.to_bytes_be()), Some(a));
            if !a.is_zero() {
                assert_eq!(a * a.invert(), Fp::ONE);
            }
            let square = a.square();
            let root = square.sqrt().expect("a square has a root");
            assert!(root == a || root == -a);
        }
    }

    #[test]
    fn wide_reduction_matches_the_integer() {
        // 2^511 + 5 mod p, checked against the same value built from field operations.
        let mut bytes = [0u8; 64];
        bytes[0] = 0x80;
        bytes[63] = 5;
        let two = Fp::from_u64(2);
        let expected = two.pow(&[511]) + Fp::from_u64(5);
        assert_eq!(Fp::from_bytes_be_wide(&bytes), expected);
    }
}
