//! SHA-256 (FIPS 180-4). The compression function uses the CPU's SHA extensions when present
//! (x86_64 SHA-NI, detected once at run time) and a portable implementation otherwise; both give
//! the same digests, which the tests check against each other and against NIST vectors.

mod portable;
#[cfg(target_arch = "x86_64")]
mod x86;

use std::sync::atomic::{AtomicU8, Ordering};

/// Initial hash value H(0) (FIPS 180-4 §5.3.3).
const INITIAL_STATE: [u32; 8] =
    [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/// Round constants K (FIPS 180-4 §4.2.2).
pub(crate) const ROUND_CONSTANTS: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
];

const UNDECIDED: u8 = 0;
const PORTABLE: u8 = 1;
const SHA_EXTENSIONS: u8 = 2;

/// Which compression function this process uses (decided on first use, then read with one
/// relaxed load per call).
static BACKEND: AtomicU8 = AtomicU8::new(UNDECIDED);

/// Test hook and escape hatch: forces the portable implementation (checked on first use).
const FORCE_PORTABLE_ENV: &str = "BASALT_NATIVE_SHA_PORTABLE";

fn backend() -> u8 {
    let current = BACKEND.load(Ordering::Relaxed);
    if current != UNDECIDED {
        return current;
    }
    let chosen = if std::env::var_os(FORCE_PORTABLE_ENV).is_none() && cpu_has_sha_extensions() {
        SHA_EXTENSIONS
    } else {
        PORTABLE
    };
    BACKEND.store(chosen, Ordering::Relaxed);
    chosen
}

#[cfg(target_arch = "x86_64")]
fn cpu_has_sha_extensions() -> bool {
    is_x86_feature_detected!("sha") && is_x86_feature_detected!("sse4.1") && is_x86_feature_detected!("ssse3")
}

#[cfg(not(target_arch = "x86_64"))]
fn cpu_has_sha_extensions() -> bool {
    false
}

/// True when digests are computed with the CPU's SHA extensions.
pub fn uses_sha_extensions() -> bool {
    backend() == SHA_EXTENSIONS
}

/// Applies the compression function to each 64-byte block of `blocks`.
#[inline]
fn compress(state: &mut [u32; 8], blocks: &[u8]) {
    debug_assert!(blocks.len().is_multiple_of(64));
    #[cfg(target_arch = "x86_64")]
    if backend() == SHA_EXTENSIONS {
        // SAFETY: the CPU was checked for the features the function is compiled for.
        unsafe { x86::compress(state, blocks) };
        return;
    }
    portable::compress(state, blocks);
}

/// The portable compression function, for tests comparing it with the accelerated one.
pub fn compress_portable(state: &mut [u32; 8], blocks: &[u8]) {
    portable::compress(state, blocks);
}

fn state_to_digest(state: &[u32; 8]) -> [u8; 32] {
    let mut digest = [0u8; 32];
    for (chunk, word) in digest.chunks_exact_mut(4).zip(state) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    digest
}

/// SHA-256 of the concatenation of `parts` (no concatenated copy is made of whole blocks).
pub fn digest_parts(parts: &[&[u8]]) -> [u8; 32] {
    let mut hasher = Hasher::new();
    for part in parts {
        hasher.update(part);
    }
    hasher.finish()
}

/// SHA-256 of `data`.
#[inline]
pub fn digest(data: &[u8]) -> [u8; 32] {
    let mut state = INITIAL_STATE;
    let whole = data.len() & !63;
    if whole > 0 {
        compress(&mut state, &data[..whole]);
    }
    finish_tail(&mut state, &data[whole..], data.len() as u64);
    state_to_digest(&state)
}

/// SHA-256 of the first `length` bytes of `buffer`, padded in place: the buffer must be zero
/// past `length` and hold the padded message (`length + 9` rounded up to 64 bytes). For short
/// messages assembled on the stack (SMT nodes): one call to the compression function for all
/// blocks, and no copy of the tail.
#[inline]
pub fn digest_padded_in_place(buffer: &mut [u8], length: usize) -> [u8; 32] {
    let padded = (length + 9).next_multiple_of(64);
    buffer[length] = 0x80;
    buffer[padded - 8..padded].copy_from_slice(&((length as u64) * 8).to_be_bytes());
    let mut state = INITIAL_STATE;
    compress(&mut state, &buffer[..padded]);
    state_to_digest(&state)
}

/// `digest_padded_in_place` of two messages at once (see there for the buffers): when both pad
/// to the same number of blocks and the CPU has SHA extensions, their compressions run
/// interleaved, nearly twice the throughput of one after the other.
#[inline]
pub fn digest_padded_pair_in_place(
    first: &mut [u8],
    first_length: usize,
    second: &mut [u8],
    second_length: usize,
) -> ([u8; 32], [u8; 32]) {
    let first_padded = (first_length + 9).next_multiple_of(64);
    let second_padded = (second_length + 9).next_multiple_of(64);
    #[cfg(target_arch = "x86_64")]
    if first_padded == second_padded && backend() == SHA_EXTENSIONS {
        for (buffer, length, padded) in
            [(&mut *first, first_length, first_padded), (&mut *second, second_length, second_padded)]
        {
            buffer[length] = 0x80;
            buffer[padded - 8..padded].copy_from_slice(&((length as u64) * 8).to_be_bytes());
        }
        let (mut first_state, mut second_state) = (INITIAL_STATE, INITIAL_STATE);
        // SAFETY: the CPU was checked for the features the function is compiled for.
        unsafe {
            x86::compress_pair(&mut first_state, &first[..first_padded], &mut second_state, &second[..second_padded])
        };
        return (state_to_digest(&first_state), state_to_digest(&second_state));
    }
    (digest_padded_in_place(first, first_length), digest_padded_in_place(second, second_length))
}

/// Pads the final partial block `tail` (< 64 bytes) of a `total`-byte message and compresses it.
#[inline]
fn finish_tail(state: &mut [u32; 8], tail: &[u8], total: u64) {
    let mut last = [0u8; 128];
    last[..tail.len()].copy_from_slice(tail);
    last[tail.len()] = 0x80;
    // The 64-bit length must fit after the 0x80 byte: one block when the tail is under 56 bytes.
    let padded = if tail.len() < 56 { 64 } else { 128 };
    last[padded - 8..padded].copy_from_slice(&(total * 8).to_be_bytes());
    compress(state, &last[..padded]);
}

/// Incremental SHA-256, for messages assembled from several parts.
pub struct Hasher {
    state: [u32; 8],
    buffer: [u8; 64],
    buffered: usize,
    total: u64,
}

impl Hasher {
    pub fn new() -> Self {
        Hasher { state: INITIAL_STATE, buffer: [0; 64], buffered: 0, total: 0 }
    }

    pub fn update(&mut self, mut data: &[u8]) {
        self.total += data.len() as u64;
        if self.buffered > 0 {
            let take = (64 - self.buffered).min(data.len());
            self.buffer[self.buffered..self.buffered + take].copy_from_slice(&data[..take]);
            self.buffered += take;
            data = &data[take..];
            if self.buffered < 64 {
                return;
            }
            let block = self.buffer;
            compress(&mut self.state, &block);
            self.buffered = 0;
        }
        let whole = data.len() & !63;
        if whole > 0 {
            compress(&mut self.state, &data[..whole]);
        }
        let rest = &data[whole..];
        self.buffer[..rest.len()].copy_from_slice(rest);
        self.buffered = rest.len();
    }

    pub fn finish(mut self) -> [u8; 32] {
        let tail = self.buffer;
        finish_tail(&mut self.state, &tail[..self.buffered], self.total);
        state_to_digest(&self.state)
    }
}

impl Default for Hasher {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Deterministic bytes (a small LCG), so that the test needs no random-number crate.
    fn pseudo_random(length: usize, seed: u32) -> Vec<u8> {
        let mut x = seed.wrapping_mul(2654435761).wrapping_add(1);
        (0..length)
            .map(|_| {
                x = x.wrapping_mul(1664525).wrapping_add(1013904223);
                (x >> 24) as u8
            })
            .collect()
    }

    /// Reference digest with the portable compression function only.
    fn portable_digest(data: &[u8]) -> [u8; 32] {
        let mut state = INITIAL_STATE;
        let mut message = data.to_vec();
        message.push(0x80);
        while message.len() % 64 != 56 {
            message.push(0);
        }
        message.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
        compress_portable(&mut state, &message);
        state_to_digest(&state)
    }

    #[test]
    fn nist_vectors() {
        assert_eq!(hex(&digest(b"")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_eq!(hex(&digest(b"abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(
            hex(&digest(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        assert_eq!(
            hex(&digest(&vec![b'a'; 1_000_000])),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
    }

    #[test]
    fn accelerated_and_incremental_match_portable() {
        for length in 0..600 {
            let data = pseudo_random(length, length as u32);
            let expected = portable_digest(&data);
            assert_eq!(digest(&data), expected, "length {length}");
            let cut = length / 3;
            assert_eq!(digest_parts(&[&data[..cut], &data[cut..]]), expected, "parts at {cut} of {length}");
            let mut buffer = vec![0u8; (length + 9).next_multiple_of(64)];
            buffer[..length].copy_from_slice(&data);
            assert_eq!(digest_padded_in_place(&mut buffer, length), expected, "padded in place, {length}");
            for other_length in [0, length / 2, length, length + 1, length + 64] {
                let other = pseudo_random(other_length, 7 + other_length as u32);
                let mut first = vec![0u8; (length + 9).next_multiple_of(64)];
                first[..length].copy_from_slice(&data);
                let mut second = vec![0u8; (other_length + 9).next_multiple_of(64)];
                second[..other_length].copy_from_slice(&other);
                let pair = digest_padded_pair_in_place(&mut first, length, &mut second, other_length);
                assert_eq!(pair, (expected, portable_digest(&other)), "pair of {length} and {other_length}");
            }
        }
    }
}
#[cfg(test)]
mod speed {
    #[test]
    #[ignore]
    fn speed() {
        use std::time::Instant;
        let data = [7u8; 64];
        let mut acc = 0u8;
        for _ in 0..3 {
            let t = Instant::now();
            for i in 0..1_000_000u32 {
                let mut d = data;
                d[0] = i as u8;
                acc ^= super::digest(&d)[0];
            }
            println!("digest64 {:?}/op sha-ext={}", t.elapsed() / 1_000_000, super::uses_sha_extensions());
            let t = Instant::now();
            let mut st = [1u32; 8];
            let blocks = [3u8; 64 * 16];
            for _ in 0..100_000 {
                super::compress_portable(&mut st, &blocks);
            }
            println!("portable block {:?}", t.elapsed() / 1_600_000);
        }
        println!("{acc}");
    }
}
