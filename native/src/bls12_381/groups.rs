//! G1 and G2, the order-r subgroups of E1(Fp) and E2(Fp2), and the checks that a point belongs
//! to them.

use super::curve::{Affine, Jacobian};
use super::fp::Fp;
use super::fp2::{modulus_minus_one_divided_by, Fp2};
use std::sync::OnceLock;

/// r, the prime order of G1 and G2, least significant limb first.
pub const ORDER: [u64; 4] = [0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48];

/// |x| for the curve parameter x = −0xd201000000010000.
pub const ABS_X: u64 = 0xd201000000010000;

/// Parses a big-endian hex constant (tables of the standards are written that way).
pub(crate) fn fp_from_hex(hex: &str) -> Fp {
    let digits = hex.trim_start_matches("0x");
    let mut bytes = [0u8; 48];
    let padded = format!("{digits:0>96}");
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&padded[2 * i..2 * i + 2], 16).expect("hex constant");
    }
    Fp::from_bytes_be(&bytes).expect("constant below p")
}

/// The standard generator of G1.
pub fn g1_generator() -> Affine<Fp> {
    static GENERATOR: OnceLock<Affine<Fp>> = OnceLock::new();
    *GENERATOR.get_or_init(|| Affine {
        x: fp_from_hex(
            "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb",
        ),
        y: fp_from_hex(
            "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1",
        ),
    })
}

/// β = 2^((p−1)/3), the cube root of unity for which φ(x, y) = (β·x, y) acts on G1 as
/// multiplication by −x² (the other root gives the other eigenvalue; the tests check the pair).
const BETA: &str = "5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe";

/// KeyValidate's group check for G1 by the endomorphism test φ(P) = [−x²]P (Scott, ePrint
/// 2021/1130, shows only points of G1 pass it on BLS12-381): two 64-bit multiplications instead
/// of one by the 255-bit r. The tests compare it with [r]P = O.
pub fn in_g1(point: &Affine<Fp>) -> bool {
    static BETA_FP: OnceLock<Fp> = OnceLock::new();
    let beta = *BETA_FP.get_or_init(|| fp_from_hex(BETA));
    let jacobian = point.to_jacobian();
    let x_squared = jacobian.multiply(&[ABS_X]).multiply(&[ABS_X]);
    Affine { x: point.x * beta, y: point.y }.to_jacobian().equals(&x_squared.negate())
}

/// ψ = untwist ∘ Frobenius ∘ twist on E2. With the twist (x, y) ↦ (x·w⁻², y·w⁻³) and w⁶ = ξ,
/// ψ(x, y) = (conj(x)·ξ^(−(p−1)/3), conj(y)·ξ^(−(p−1)/2)); for Jacobian points z is conjugated.
pub fn psi(point: &Jacobian<Fp2>) -> Jacobian<Fp2> {
    static CONSTANTS: OnceLock<(Fp2, Fp2)> = OnceLock::new();
    let (cx, cy) = *CONSTANTS.get_or_init(|| {
        let xi = Fp2::from_u64s(1, 1);
        (xi.pow(&modulus_minus_one_divided_by(3)).invert(), xi.pow(&modulus_minus_one_divided_by(2)).invert())
    });
    Jacobian { x: point.x.conjugate() * cx, y: point.y.conjugate() * cy, z: point.z.conjugate() }
}

/// [x]P on E2 for the negative curve parameter x.
pub fn g2_multiply_by_x(point: &Jacobian<Fp2>) -> Jacobian<Fp2> {
    point.multiply(&[ABS_X]).negate()
}

/// Membership of G2 by the endomorphism test ψ(P) = [x]P: on G2, ψ acts as multiplication by
/// p ≡ x (mod r), and Scott ("A note on group membership tests for G1, G2 and GT on BLS
/// pairing-friendly curves", ePrint 2021/1130) shows no other point of E2(Fp2) satisfies it for
/// BLS12-381. A 64-bit multiplication instead of a 255-bit one; the tests compare it with
/// [r]P = O.
pub fn in_g2(point: &Affine<Fp2>) -> bool {
    let jacobian = point.to_jacobian();
    psi(&jacobian).equals(&g2_multiply_by_x(&jacobian))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bls12_381::curve::decompress;
    use crate::bls12_381::fp2::tests::sample2;

    /// A point of E2 that is (almost surely) outside G2: x chosen freely, y solved for.
    pub(crate) fn random_e2_point(seed: u64) -> Affine<Fp2> {
        let mut s = seed;
        loop {
            let x = sample2(s);
            if let Some(y) = (x.square() * x + Fp2::from_u64s(4, 4)).sqrt() {
                return Affine { x, y };
            }
            s += 1_000_000;
        }
    }

    #[test]
    fn g1_membership_agrees_with_multiplication_by_r() {
        let g = g1_generator();
        assert!(g.is_on_curve());
        assert!(in_g1(&g));
        assert!(g.to_jacobian().multiply(&ORDER).is_infinity());
        assert_eq!(fp_from_hex(BETA), Fp::from_u64(2).pow(&modulus_minus_one_divided_by(3)));
        let multiple = g.to_jacobian().multiply(&[0xdead_beef_1234_5678, 7]).to_affine().unwrap();
        assert!(in_g1(&multiple));
        for seed in 0..8 {
            // A point of E1 with a freely chosen x: outside G1 but for a negligible chance.
            let mut s = seed;
            let point = loop {
                let x = crate::bls12_381::fp::tests::sample(s);
                if let Some(y) = (x.square() * x + Fp::from_u64(4)).sqrt() {
                    break Affine { x, y };
                }
                s += 1_000_000;
            };
            let by_order = point.to_jacobian().multiply(&ORDER).is_infinity();
            assert!(!by_order);
            assert_eq!(in_g1(&point), by_order);
        }
    }

    #[test]
    fn g2_membership_agrees_with_multiplication_by_r() {
        // The compressed G2 generator (x.c1 first, with the compression flag).
        let hex = "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e\
                   024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
        let bytes: Vec<u8> = (0..96).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()).collect();
        let generator = decompress::<Fp2>(&bytes).expect("the generator decodes");
        assert!(generator.is_on_curve());
        assert!(generator.to_jacobian().multiply(&ORDER).is_infinity());
        assert!(in_g2(&generator));
        let multiple = generator.to_jacobian().multiply(&[0x1234_5678_9abc_def1, 42]).to_affine().unwrap();
        assert!(in_g2(&multiple));
        for seed in 0..8 {
            let point = random_e2_point(seed);
            assert!(point.is_on_curve());
            let by_order = point.to_jacobian().multiply(&ORDER).is_infinity();
            assert_eq!(in_g2(&point), by_order);
            assert!(!by_order, "a random point of E2 is in G2 with negligible probability");
        }
    }
}
