//! Points of y² = x³ + b over Fp (E1, where G1 lives) and over Fp2 (the twist E2, where G2
//! lives): one implementation for both, generic over the coordinate field. Jacobian
//! coordinates (x/z², y/z³), so additions need no inversion; affine points for the encodings.

use super::fp::Fp;
use super::fp2::Fp2;
use std::ops::{Add, Mul, Neg, Sub};

/// What the curve code needs of a coordinate field.
pub trait Field:
    Copy + PartialEq + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Neg<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    /// b of the curve over this field: 4 for E1, 4(1 + u) for E2.
    fn curve_b() -> Self;
    fn square(self) -> Self;
    fn is_zero(self) -> bool;
    fn invert(self) -> Self;
    fn sqrt(self) -> Option<Self>;
    /// The ZCash sort bit: set when y is the larger of ±y.
    fn is_lexicographically_largest(self) -> bool;
    /// The field element of a big-endian encoding (one or two 48-byte integers, each below p).
    fn from_bytes_be(bytes: &[u8]) -> Option<Self>;
}

impl Field for Fp {
    const ZERO: Fp = Fp::ZERO;
    const ONE: Fp = Fp::ONE;
    fn curve_b() -> Fp {
        Fp::from_u64(4)
    }
    fn square(self) -> Fp {
        Fp::square(self)
    }
    fn is_zero(self) -> bool {
        Fp::is_zero(self)
    }
    fn invert(self) -> Fp {
        Fp::invert(self)
    }
    fn sqrt(self) -> Option<Fp> {
        Fp::sqrt(self)
    }
    fn is_lexicographically_largest(self) -> bool {
        Fp::is_lexicographically_largest(self)
    }
    fn from_bytes_be(bytes: &[u8]) -> Option<Fp> {
        Fp::from_bytes_be(bytes.try_into().ok()?)
    }
}

impl Field for Fp2 {
    const ZERO: Fp2 = Fp2::ZERO;
    const ONE: Fp2 = Fp2::ONE;
    fn curve_b() -> Fp2 {
        Fp2::from_u64s(4, 4)
    }
    fn square(self) -> Fp2 {
        Fp2::square(self)
    }
    fn is_zero(self) -> bool {
        Fp2::is_zero(self)
    }
    fn invert(self) -> Fp2 {
        Fp2::invert(self)
    }
    fn sqrt(self) -> Option<Fp2> {
        Fp2::sqrt(self)
    }
    fn is_lexicographically_largest(self) -> bool {
        Fp2::is_lexicographically_largest(self)
    }
    /// ZCash order: c1 first, then c0.
    fn from_bytes_be(bytes: &[u8]) -> Option<Fp2> {
        if bytes.len() != 96 {
            return None;
        }
        Some(Fp2::new(<Fp as Field>::from_bytes_be(&bytes[48..])?, <Fp as Field>::from_bytes_be(&bytes[..48])?))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Affine<F> {
    pub x: F,
    pub y: F,
}

impl<F: Field> Affine<F> {
    pub fn is_on_curve(&self) -> bool {
        self.y.square() == self.x.square() * self.x + F::curve_b()
    }

    pub fn to_jacobian(self) -> Jacobian<F> {
        Jacobian { x: self.x, y: self.y, z: F::ONE }
    }

    pub fn negate(self) -> Affine<F> {
        Affine { x: self.x, y: -self.y }
    }
}

/// (x/z², y/z³); z = 0 is the point at infinity.
#[derive(Clone, Copy, Debug)]
pub struct Jacobian<F> {
    pub x: F,
    pub y: F,
    pub z: F,
}

impl<F: Field> Jacobian<F> {
    pub fn infinity() -> Jacobian<F> {
        Jacobian { x: F::ONE, y: F::ONE, z: F::ZERO }
    }

    pub fn is_infinity(&self) -> bool {
        self.z.is_zero()
    }

    pub fn negate(self) -> Jacobian<F> {
        Jacobian { x: self.x, y: -self.y, z: self.z }
    }

    /// Doubling for a = 0 (dbl-2009-l of the Explicit-Formulas Database).
    pub fn double(self) -> Jacobian<F> {
        if self.is_infinity() || self.y.is_zero() {
            return Jacobian::infinity();
        }
        let a = self.x.square();
        let b = self.y.square();
        let c = b.square();
        let d = (self.x + b).square() - a - c;
        let d = d + d;
        let e = a + a + a;
        let f = e.square();
        let x3 = f - (d + d);
        let c2 = c + c;
        let c4 = c2 + c2;
        let y3 = e * (d - x3) - (c4 + c4);
        let yz = self.y * self.z;
        Jacobian { x: x3, y: y3, z: yz + yz }
    }

    /// General addition (add-2007-bl) with the doubling and opposite-point cases.
    pub fn add_point(self, other: Jacobian<F>) -> Jacobian<F> {
        if self.is_infinity() {
            return other;
        }
        if other.is_infinity() {
            return self;
        }
        let z1z1 = self.z.square();
        let z2z2 = other.z.square();
        let u1 = self.x * z2z2;
        let u2 = other.x * z1z1;
        let s1 = self.y * other.z * z2z2;
        let s2 = other.y * self.z * z1z1;
        let h = u2 - u1;
        let r_half = s2 - s1;
        if h.is_zero() {
            return if r_half.is_zero() { self.double() } else { Jacobian::infinity() };
        }
        let i = (h + h).square();
        let j = h * i;
        let r = r_half + r_half;
        let v = u1 * i;
        let x3 = r.square() - j - (v + v);
        let s1j = s1 * j;
        let y3 = r * (v - x3) - (s1j + s1j);
        let z3 = ((self.z + other.z).square() - z1z1 - z2z2) * h;
        Jacobian { x: x3, y: y3, z: z3 }
    }

    /// [scalar]self for a scalar given as limbs (least significant first); double and add, not
    /// constant time (only public points are multiplied).
    pub fn multiply(self, scalar: &[u64]) -> Jacobian<F> {
        let mut result = Jacobian::infinity();
        for limb in scalar.iter().rev() {
            for bit in (0..64).rev() {
                result = result.double();
                if (limb >> bit) & 1 == 1 {
                    result = result.add_point(self);
                }
            }
        }
        result
    }

    pub fn to_affine(self) -> Option<Affine<F>> {
        if self.is_infinity() {
            return None;
        }
        let z_inverse = self.z.invert();
        let z_inverse2 = z_inverse.square();
        Some(Affine { x: self.x * z_inverse2, y: self.y * z_inverse2 * z_inverse })
    }

    /// Equality as points (projective coordinates differ by powers of z).
    pub fn equals(&self, other: &Jacobian<F>) -> bool {
        match (self.is_infinity(), other.is_infinity()) {
            (true, true) => return true,
            (false, false) => {}
            _ => return false,
        }
        let z1z1 = self.z.square();
        let z2z2 = other.z.square();
        self.x * z2z2 == other.x * z1z1 && self.y * z2z2 * other.z == other.y * z1z1 * self.z
    }
}

/// Flags of the first byte of a ZCash point encoding.
const COMPRESSED: u8 = 0x80;
const INFINITY: u8 = 0x40;
const SORT: u8 = 0x20;

/// Why an encoding is not a usable point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// Not the compressed form, flags set where they must not be, or a coordinate ≥ p.
    Encoding,
    /// The encoding of the point at infinity (well formed, but never a valid key or proof).
    Infinity,
    /// x has no y on the curve.
    NotOnCurve,
}

/// Decompresses a ZCash-encoded point (48 bytes for E1, 96 for E2): the three flag bits are the
/// top bits of the first byte, x is the rest big-endian, and y is the root of x³ + b whose sort
/// bit matches. Not checked here: membership of the prime-order subgroup.
pub fn decompress<F: Field>(bytes: &[u8]) -> Result<Affine<F>, DecodeError> {
    let Some(&first) = bytes.first() else { return Err(DecodeError::Encoding) };
    if first & COMPRESSED == 0 {
        return Err(DecodeError::Encoding);
    }
    let mut x_bytes = bytes.to_vec();
    x_bytes[0] &= !(COMPRESSED | INFINITY | SORT);
    if first & INFINITY != 0 {
        // Canonical infinity: no sort bit and x all zero.
        return if first & SORT == 0 && x_bytes.iter().all(|&byte| byte == 0) {
            Err(DecodeError::Infinity)
        } else {
            Err(DecodeError::Encoding)
        };
    }
    let x = F::from_bytes_be(&x_bytes).ok_or(DecodeError::Encoding)?;
    let y = (x.square() * x + F::curve_b()).sqrt().ok_or(DecodeError::NotOnCurve)?;
    let y = if y.is_lexicographically_largest() == (first & SORT != 0) { y } else { -y };
    Ok(Affine { x, y })
}
