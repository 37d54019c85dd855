//! BLS12-381 for one job: the proof-of-possession check of LIP 0038 (PopVerify of the IETF BLS
//! signature draft, POP ciphersuite). blst, which Basalt uses for everything else BLS, fixes the
//! hash-to-curve DST to the signature suite's, so the POP DST's hash to G2 and the pairing
//! check are done here. Verification only: inputs are public and nothing is constant time.

/// `+=`, `-=` and `*=` from the binary operators, for the field types.
macro_rules! assign_operators {
    ($field:ty) => {
        impl std::ops::AddAssign for $field {
            #[inline]
            fn add_assign(&mut self, other: $field) {
                *self = *self + other;
            }
        }

        impl std::ops::SubAssign for $field {
            #[inline]
            fn sub_assign(&mut self, other: $field) {
                *self = *self - other;
            }
        }

        impl std::ops::MulAssign for $field {
            #[inline]
            fn mul_assign(&mut self, other: $field) {
                *self = *self * other;
            }
        }
    };
}

pub mod curve;
pub mod fp;
pub mod fp2;
pub mod groups;
pub mod hash_to_g2;
pub mod pairing;
pub mod tower;

use curve::decompress;
#[cfg(test)]
use curve::Affine;
use fp::Fp;
use fp2::Fp2;
use groups::{g1_generator, in_g1, in_g2};

/// The DST of proofs of possession (BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_).
pub const POP_DST: &[u8] = b"BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";

pub const PUBLIC_KEY_BYTES: usize = 48;
pub const PROOF_BYTES: usize = 96;

/// PopVerify(pk, proof) for a compressed 48-byte key and 96-byte proof: KeyValidate(pk) (a
/// canonical encoding of a point of G1 other than the identity), the proof a canonical encoding
/// of a point of G2, then e(pk, H_pop(pk)) = e(g1, proof), checked as
/// e(pk, H_pop(pk))·e(−g1, proof) = 1. Any other input is false.
pub fn pop_verify(public_key: &[u8], proof: &[u8]) -> bool {
    if public_key.len() != PUBLIC_KEY_BYTES || proof.len() != PROOF_BYTES {
        return false;
    }
    let Ok(key) = decompress::<Fp>(public_key) else { return false };
    if !in_g1(&key) {
        return false;
    }
    let Ok(proof_point) = decompress::<Fp2>(proof) else { return false };
    if !in_g2(&proof_point) {
        return false;
    }
    let Some(hashed) = hash_to_g2::hash_to_g2(public_key, POP_DST).to_affine() else { return false };
    pairing::pairing_product_is_one(&[(key, hashed), (g1_generator().negate(), proof_point)])
}

/// The compressed ZCash encoding of a finite point (tests build keys and proofs with it).
#[cfg(test)]
pub(crate) fn compress_g1(point: &Affine<Fp>) -> [u8; 48] {
    let mut out = point.x.to_bytes_be();
    out[0] |= 0x80 | if point.y.is_lexicographically_largest() { 0x20 } else { 0 };
    out
}

#[cfg(test)]
pub(crate) fn compress_g2(point: &Affine<Fp2>) -> [u8; 96] {
    let mut out = [0u8; 96];
    out[..48].copy_from_slice(&point.x.c1.to_bytes_be());
    out[48..].copy_from_slice(&point.x.c0.to_bytes_be());
    out[0] |= 0x80 | if point.y.is_lexicographically_largest() { 0x20 } else { 0 };
    out
}

#[cfg(test)]
mod tests;
