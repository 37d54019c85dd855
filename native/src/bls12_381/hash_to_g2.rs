//! hash_to_curve for G2 with the suite BLS12381G2_XMD:SHA-256_SSWU_RO_ (RFC 9380 §8.8.2) under
//! any domain separation tag: expand_message_xmd with SHA-256, hash_to_field into Fp2, the
//! simplified SWU map onto the 3-isogenous curve E2', the 3-isogeny to E2 and cofactor clearing.
//! The proof of possession needs it with the `BLS_POP_` DST, which blst's API does not offer.

use super::curve::{Affine, Jacobian};
use super::fp::Fp;
use super::fp2::Fp2;
use super::groups::{fp_from_hex, g2_multiply_by_x, psi};
use crate::sha256::Hasher;
use std::sync::OnceLock;

const DIGEST_BYTES: usize = 32;
const BLOCK_BYTES: usize = 64;
/// L = ceil((ceil(log2 p) + k)/8) with security level k = 128.
const FIELD_ELEMENT_BYTES: usize = 64;
/// Two elements of Fp2, two Fp coordinates each.
const UNIFORM_BYTES: usize = 4 * FIELD_ELEMENT_BYTES;

/// expand_message_xmd(msg, DST, 256) with SHA-256 (RFC 9380 §5.3.1); the DST is at most 255
/// bytes (the caller's is a constant).
pub fn expand_message_xmd(message: &[u8], dst: &[u8]) -> [u8; UNIFORM_BYTES] {
    debug_assert!(dst.len() <= 255);
    let dst_length = [dst.len() as u8];
    let mut hasher = Hasher::new();
    hasher.update(&[0u8; BLOCK_BYTES]);
    hasher.update(message);
    hasher.update(&[(UNIFORM_BYTES >> 8) as u8, UNIFORM_BYTES as u8, 0]);
    hasher.update(dst);
    hasher.update(&dst_length);
    let b0 = hasher.finish();
    let mut out = [0u8; UNIFORM_BYTES];
    let mut previous = [0u8; DIGEST_BYTES];
    for (index, chunk) in out.chunks_exact_mut(DIGEST_BYTES).enumerate() {
        // b_1 = H(b_0 ‖ 1 ‖ DST'); b_i = H((b_0 ⊕ b_(i−1)) ‖ i ‖ DST'), b_0 ⊕ 0 being b_0.
        let mut mixed = [0u8; DIGEST_BYTES];
        for (byte, (a, b)) in mixed.iter_mut().zip(b0.iter().zip(previous.iter())) {
            *byte = a ^ b;
        }
        let mut hasher = Hasher::new();
        hasher.update(&mixed);
        hasher.update(&[index as u8 + 1]);
        hasher.update(dst);
        hasher.update(&dst_length);
        previous = hasher.finish();
        chunk.copy_from_slice(&previous);
    }
    out
}

/// hash_to_field(msg, 2) into Fp2 (RFC 9380 §5.2).
pub fn hash_to_field(message: &[u8], dst: &[u8]) -> [Fp2; 2] {
    let uniform = expand_message_xmd(message, dst);
    let element = |i: usize| {
        let bytes: &[u8; FIELD_ELEMENT_BYTES] =
            uniform[i * FIELD_ELEMENT_BYTES..(i + 1) * FIELD_ELEMENT_BYTES].try_into().expect("64 bytes");
        Fp::from_bytes_be_wide(bytes)
    };
    [Fp2::new(element(0), element(1)), Fp2::new(element(2), element(3))]
}

/// Constants of E2': y² = x³ + A'·x + B' and of the 3-isogeny (RFC 9380 §8.8.2, Appendix E.3).
struct IsoConstants {
    a: Fp2,
    b: Fp2,
    z: Fp2,
    /// −B'/A' and B'/(Z·A'), the two cases of x1 in the SWU map.
    minus_b_over_a: Fp2,
    b_over_za: Fp2,
    x_num: [Fp2; 4],
    x_den: [Fp2; 3],
    y_num: [Fp2; 4],
    y_den: [Fp2; 4],
}

fn iso_constants() -> &'static IsoConstants {
    static CONSTANTS: OnceLock<IsoConstants> = OnceLock::new();
    CONSTANTS.get_or_init(|| {
        let c = |c0: &str, c1: &str| Fp2::new(fp_from_hex(c0), fp_from_hex(c1));
        let a = Fp2::from_u64s(0, 240);
        let b = Fp2::from_u64s(1012, 1012);
        let z = -Fp2::from_u64s(2, 1);
        // The coefficients k_(i,j) as (c0, c1), lowest degree first.
        let k1_0 = "5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97d6";
        let k2_0 = "1530477c7ab4113b59a4c18b076d11930f7da5d4a07f649bf54439d87d27e500fc8c25ebf8c92f6812cfc71c71c6d706";
        let p_minus = |low: &str| {
            format!("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffff{low}")
        };
        IsoConstants {
            a,
            b,
            z,
            minus_b_over_a: -(b * a.invert()),
            b_over_za: b * (z * a).invert(),
            x_num: [
                c(k1_0, k1_0),
                c(
                    "0",
                    "11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71a",
                ),
                c(
                    "11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71e",
                    "8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6aaaa9354ffffffffe38d",
                ),
                c(
                    "171d6541fa38ccfaed6dea691f5fb614cb14b4e7f4e810aa22d6108f142b85757098e38d0f671c7188e2aaaaaaaa5ed1",
                    "0",
                ),
            ],
            x_den: [c("0", &p_minus("aa63")), c("c", &p_minus("aa9f")), c("1", "0")],
            y_num: [
                c(k2_0, k2_0),
                c(
                    "0",
                    "5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97be",
                ),
                c(
                    "11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71c",
                    "8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6aaaa9354ffffffffe38f",
                ),
                c(
                    "124c9ad43b6cf79bfbf7043de3811ad0761b0f37a1e26286b0e977c69aa274524e79097a56dc4bd9e1b371c71c718b10",
                    "0",
                ),
            ],
            y_den: [
                c(&p_minus("a8fb"), &p_minus("a8fb")),
                c("0", &p_minus("a9d3")),
                c("12", &p_minus("aa99")),
                c("1", "0"),
            ],
        }
    })
}

/// The simplified SWU map onto E2' (RFC 9380 §6.6.2), in its plain (not constant-time) form.
pub fn map_to_iso_curve(u: Fp2) -> Affine<Fp2> {
    let k = iso_constants();
    let rhs = |x: Fp2| x.square() * x + k.a * x + k.b;
    let zu2 = k.z * u.square();
    let denominator = zu2.square() + zu2;
    let x1 = if denominator.is_zero() { k.b_over_za } else { k.minus_b_over_a * (Fp2::ONE + denominator.invert()) };
    let (x, y) = match rhs(x1).sqrt() {
        Some(y) => (x1, y),
        None => {
            // Z is chosen so that exactly one of g(x1) and g(Z·u²·x1) is a square.
            let x2 = zu2 * x1;
            (x2, rhs(x2).sqrt().expect("SWU: g(x2) is a square when g(x1) is not"))
        }
    };
    let y = if u.sgn0() == y.sgn0() { y } else { -y };
    Affine { x, y }
}

/// Σ coefficients[i]·x^i by Horner's rule.
fn evaluate(coefficients: &[Fp2], x: Fp2) -> Fp2 {
    let mut acc = coefficients[coefficients.len() - 1];
    for coefficient in coefficients.iter().rev().skip(1) {
        acc = acc * x + *coefficient;
    }
    acc
}

/// The 3-isogeny E2' → E2; a zero denominator (the isogeny's kernel) maps to infinity.
pub fn iso_map(point: &Affine<Fp2>) -> Jacobian<Fp2> {
    let k = iso_constants();
    let x_den = evaluate(&k.x_den, point.x);
    let y_den = evaluate(&k.y_den, point.x);
    if x_den.is_zero() || y_den.is_zero() {
        return Jacobian::infinity();
    }
    // No inversion: with Z = x_den·y_den, X = x_num·x_den·y_den² and Y = y·y_num·x_den³·y_den²
    // give X/Z² = x_num/x_den and Y/Z³ = y·y_num/y_den.
    let z = x_den * y_den;
    let x_den_y_den2 = z * y_den;
    Jacobian {
        x: evaluate(&k.x_num, point.x) * x_den_y_den2,
        y: point.y * evaluate(&k.y_num, point.x) * x_den_y_den2 * x_den.square(),
        z,
    }
}

/// clear_cofactor for G2, i.e. [h_eff]P, with the endomorphism ψ (Budroni–Pintore, RFC 9380
/// Appendix G.3): [x² − x − 1]P + [x − 1]ψ(P) + ψ²([2]P).
pub fn clear_cofactor(point: &Jacobian<Fp2>) -> Jacobian<Fp2> {
    let t1 = g2_multiply_by_x(point);
    let t2 = psi(point);
    let mut t3 = psi(&psi(&point.double())).add_point(t2.negate());
    t3 = t3.add_point(g2_multiply_by_x(&t1.add_point(t2)));
    t3 = t3.add_point(t1.negate());
    t3.add_point(point.negate())
}

/// hash_to_curve(message) on G2 with the given DST.
pub fn hash_to_g2(message: &[u8], dst: &[u8]) -> Jacobian<Fp2> {
    let [u0, u1] = hash_to_field(message, dst);
    let q0 = iso_map(&map_to_iso_curve(u0));
    let q1 = iso_map(&map_to_iso_curve(u1));
    clear_cofactor(&q0.add_point(q1))
}
