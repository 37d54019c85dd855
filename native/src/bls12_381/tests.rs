//! PopVerify end to end: the repository's LIP 0038 vectors, keys and proofs made here, and
//! every way an input can be wrong.

use super::curve::{decompress, Affine, DecodeError};
use super::fp::Fp;
use super::fp2::Fp2;
use super::groups::{g1_generator, tests::random_e2_point};
use super::hash_to_g2::hash_to_g2;
use super::{compress_g1, compress_g2, pop_verify, POP_DST};
use crate::smt::speed_test::thread_cpu_time;
use std::path::PathBuf;

fn hex(text: &str) -> Vec<u8> {
    let digits = text.trim().trim_matches('\'').trim_start_matches("0x");
    (0..digits.len() / 2).map(|i| u8::from_str_radix(&digits[2 * i..2 * i + 2], 16).expect("hex")).collect()
}

/// The fixture folder shared with the TypeScript conformance tests.
fn fixtures(name: &str) -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../test/fixtures/crypto/bls_specs").join(name);
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).expect("fixture folder").map(|entry| entry.unwrap().path()).collect();
    files.sort();
    files
        .into_iter()
        .map(|path| (path.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&path).unwrap()))
        .collect()
}

/// The value of `key:` in a fixture file (one line each; the files are tiny YAML).
fn field<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .map(str::trim)
        .find_map(|line| line.strip_prefix(key).and_then(|rest| rest.strip_prefix(':')))
        .unwrap_or_else(|| panic!("no {key} in fixture"))
        .trim()
}

/// A scalar from 32 big-endian bytes, least significant limb first.
fn scalar(bytes: &[u8]) -> [u64; 4] {
    let mut limbs = [0u64; 4];
    for (i, limb) in limbs.iter_mut().enumerate() {
        *limb = u64::from_be_bytes(bytes[24 - 8 * i..32 - 8 * i].try_into().unwrap());
    }
    limbs
}

/// (pk, PopProve(sk)) computed from scratch here.
fn key_and_proof(secret: &[u64; 4]) -> ([u8; 48], [u8; 96]) {
    let key = compress_g1(&g1_generator().to_jacobian().multiply(secret).to_affine().unwrap());
    let proof = compress_g2(&hash_to_g2(&key, POP_DST).multiply(secret).to_affine().unwrap());
    (key, proof)
}

fn secret(seed: u64) -> [u64; 4] {
    let mut state = seed.wrapping_add(0x9e3779b97f4a7c15);
    let mut limbs = [0u64; 4];
    for limb in limbs.iter_mut() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        *limb = state;
    }
    limbs[3] >>= 2; // below r
    limbs
}

#[test]
fn pop_verify_vectors() {
    let cases = fixtures("pop_verify");
    assert!(cases.len() >= 7);
    for (name, text) in cases {
        let expected = field(&text, "output") == "true";
        assert_eq!(pop_verify(&hex(field(&text, "pk")), &hex(field(&text, "proof"))), expected, "{name}");
    }
}

#[test]
fn pop_prove_vectors_reproduce_with_the_native_hash_to_g2() {
    for (name, text) in fixtures("pop_prove") {
        let (key, proof) = key_and_proof(&scalar(&hex(field(&text, "input"))));
        assert_eq!(proof.to_vec(), hex(field(&text, "output")), "{name}");
        assert!(pop_verify(&key, &proof), "{name}");
    }
}

#[test]
fn own_keys_verify_and_mismatches_do_not() {
    let (key_a, proof_a) = key_and_proof(&secret(1));
    let (key_b, proof_b) = key_and_proof(&secret(2));
    assert!(pop_verify(&key_a, &proof_a));
    assert!(pop_verify(&key_b, &proof_b));
    assert!(!pop_verify(&key_a, &proof_b));
    assert!(!pop_verify(&key_b, &proof_a));
    // The proof's negation: a valid G2 point, the wrong one.
    let mut negated = proof_a;
    negated[0] ^= 0x20;
    assert!(!pop_verify(&key_a, &negated));
    assert!(!pop_verify(&key_a[..47], &proof_a));
    assert!(!pop_verify(&key_a, &proof_a[..95]));
}

#[test]
fn rejects_malformed_and_out_of_group_points() {
    let (key, proof) = key_and_proof(&secret(3));
    let mut infinity_key = [0u8; 48];
    infinity_key[0] = 0xc0;
    let mut infinity_proof = [0u8; 96];
    infinity_proof[0] = 0xc0;
    assert_eq!(decompress::<Fp>(&infinity_key), Err(DecodeError::Infinity));
    assert!(!pop_verify(&infinity_key, &proof));
    assert!(!pop_verify(&key, &infinity_proof));
    // Infinity with the sort bit or a non-zero x is not canonical.
    let mut bad = infinity_key;
    bad[0] = 0xe0;
    assert_eq!(decompress::<Fp>(&bad), Err(DecodeError::Encoding));
    bad[0] = 0xc0;
    bad[47] = 1;
    assert_eq!(decompress::<Fp>(&bad), Err(DecodeError::Encoding));
    // Uncompressed flag on a 48-byte key.
    let mut flag = key;
    flag[0] &= 0x7f;
    assert!(!pop_verify(&flag, &proof));
    // x = p (and x.c1 = p) is not a canonical coordinate.
    let p_bytes = (-Fp::ONE).to_bytes_be();
    let mut x_is_p = p_bytes;
    x_is_p[47] += 1;
    x_is_p[0] |= 0x80;
    assert_eq!(decompress::<Fp>(&x_is_p), Err(DecodeError::Encoding));
    let mut proof_x_is_p = proof;
    proof_x_is_p[..48].copy_from_slice(&x_is_p);
    assert_eq!(decompress::<Fp2>(&proof_x_is_p), Err(DecodeError::Encoding));
    // An x with no point on E1: find one by stepping x.
    let mut off_curve = key;
    while decompress::<Fp>(&off_curve) != Err(DecodeError::NotOnCurve) {
        off_curve[47] = off_curve[47].wrapping_add(1);
    }
    assert!(!pop_verify(&off_curve, &proof));
    // A point of E1 outside G1 (E1 has cofactor h1 ≈ 2^126, so almost every x with a y).
    let mut outside = key;
    loop {
        outside[47] = outside[47].wrapping_add(1);
        if let Ok(point) = decompress::<Fp>(&outside) {
            assert!(!super::groups::in_g1(&point));
            break;
        }
    }
    assert!(!pop_verify(&outside, &proof));
    // A point of E2 outside G2.
    let stray = compress_g2(&random_e2_point(11));
    assert!(decompress::<Fp2>(&stray).is_ok());
    assert!(!pop_verify(&key, &stray));
}

#[test]
fn compression_round_trips() {
    for seed in 0..4 {
        let point = hash_to_g2(&[seed as u8], POP_DST).to_affine().unwrap();
        let decoded: Affine<Fp2> = decompress(&compress_g2(&point)).unwrap();
        assert_eq!(decoded, point);
        let key = g1_generator().to_jacobian().multiply(&secret(seed)).to_affine().unwrap();
        assert_eq!(decompress::<Fp>(&compress_g1(&key)).unwrap(), key);
    }
}

/// Milliseconds of CPU per call of `body`.
fn cpu_ms(rounds: u32, body: &dyn Fn()) -> f64 {
    let started = thread_cpu_time();
    for _ in 0..rounds {
        body();
    }
    (thread_cpu_time() - started).as_secs_f64() * 1000.0 / rounds as f64
}

/// `cargo test --release -- --ignored --nocapture pop_verify_cost`: CPU time per check and per
/// stage.
#[test]
#[ignore]
fn pop_verify_cost() {
    use super::groups::{in_g1, in_g2};
    use super::pairing::{final_exponentiation, multi_miller_loop, pairing_product_is_one};
    let (key, proof) = key_and_proof(&secret(5));
    let k = decompress::<Fp>(&key).unwrap();
    let q = decompress::<Fp2>(&proof).unwrap();
    let h = hash_to_g2(&key, POP_DST).to_affine().unwrap();
    let minus_g1 = g1_generator().negate();
    println!("pop_verify      {:.3} ms", cpu_ms(200, &|| assert!(pop_verify(&key, &proof))));
    println!("  decompress G1 {:.3} ms", cpu_ms(200, &|| assert!(decompress::<Fp>(&key).is_ok())));
    println!("  decompress G2 {:.3} ms", cpu_ms(200, &|| assert!(decompress::<Fp2>(&proof).is_ok())));
    println!("  in G1         {:.3} ms", cpu_ms(200, &|| assert!(in_g1(&k))));
    println!("  in G2         {:.3} ms", cpu_ms(200, &|| assert!(in_g2(&q))));
    println!("  hash to G2    {:.3} ms", cpu_ms(200, &|| assert!(hash_to_g2(&key, POP_DST).to_affine().is_some())));
    println!("  pairings      {:.3} ms", cpu_ms(200, &|| assert!(pairing_product_is_one(&[(k, h), (minus_g1, q)]))));
    let pairs = [(k, h), (minus_g1, q)];
    let miller = cpu_ms(200, &|| {
        std::hint::black_box(multi_miller_loop(&pairs));
    });
    println!("    Miller loop {miller:.3} ms");
    let f = multi_miller_loop(&pairs);
    let final_exp = cpu_ms(200, &|| {
        std::hint::black_box(final_exponentiation(f));
    });
    println!("    final exp   {final_exp:.3} ms");
    let a = std::hint::black_box(h.x.c0);
    let mul = cpu_ms(20, &|| {
        let mut x = a;
        for _ in 0..10_000 {
            x = std::hint::black_box(x * a);
        }
    });
    println!("  Fp product    {:.1} ns", mul * 100.0);
    let b = std::hint::black_box(h.x);
    let mul2 = cpu_ms(20, &|| {
        let mut x = b;
        for _ in 0..10_000 {
            x = std::hint::black_box(x * b);
        }
    });
    println!("  Fp2 product   {:.1} ns", mul2 * 100.0);
}
