//! SHA-256 compression with the x86 SHA extensions (SHA-NI: `sha256rnds2`, `sha256msg1`,
//! `sha256msg2`). Only called after run-time detection (see `mod.rs`).
//!
//! The instructions keep the eight working variables in two registers, ordered (A, B, E, F) and
//! (C, D, G, H) from the highest lane down, so the state is reshuffled on entry and exit. Each
//! `sha256rnds2` performs two rounds; the message schedule is computed four words at a time.

use super::ROUND_CONSTANTS;
use core::arch::x86_64::*;

/// Two `sha256rnds2` steps: four rounds with the message words `words` (W[t..t+4]) and K[t..t+4].
macro_rules! four_rounds {
    ($abef:ident, $cdgh:ident, $words:expr, $t:expr) => {{
        let constants = _mm_loadu_si128(ROUND_CONSTANTS.as_ptr().add($t) as *const __m128i);
        let input = _mm_add_epi32($words, constants);
        // After two rounds the old (A, B, E, F) are the new (C, D, G, H): the registers swap roles.
        $cdgh = _mm_sha256rnds2_epu32($cdgh, $abef, input);
        $abef = _mm_sha256rnds2_epu32($abef, $cdgh, _mm_shuffle_epi32(input, 0x0E));
    }};
}

/// W[t..t+4] from W[t-16..t-12] (`w0`), W[t-12..t-8] (`w1`), W[t-8..t-4] (`w2`), W[t-4..t] (`w3`):
/// msg1 adds σ0 of the next words, the aligned W[t-7..t-3] is added, msg2 adds σ1.
macro_rules! next_words {
    ($w0:expr, $w1:expr, $w2:expr, $w3:expr) => {
        _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32($w0, $w1), _mm_alignr_epi8($w3, $w2, 4)), $w3)
    };
}

#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) unsafe fn compress(state: &mut [u32; 8], blocks: &[u8]) {
    // Message words are big-endian: reverse the bytes of each 32-bit lane.
    let byte_swap = _mm_set_epi64x(0x0c0d0e0f_08090a0b, 0x04050607_00010203);

    let abcd = _mm_loadu_si128(state.as_ptr() as *const __m128i);
    let efgh = _mm_loadu_si128(state.as_ptr().add(4) as *const __m128i);
    let badc = _mm_shuffle_epi32(abcd, 0xB1);
    let hgfe = _mm_shuffle_epi32(efgh, 0x1B);
    let mut abef = _mm_alignr_epi8(badc, hgfe, 8);
    let mut cdgh = _mm_blend_epi16(hgfe, badc, 0xF0);

    for block in blocks.chunks_exact(64) {
        let saved_abef = abef;
        let saved_cdgh = cdgh;
        let at = block.as_ptr() as *const __m128i;
        let mut w0 = _mm_shuffle_epi8(_mm_loadu_si128(at), byte_swap);
        let mut w1 = _mm_shuffle_epi8(_mm_loadu_si128(at.add(1)), byte_swap);
        let mut w2 = _mm_shuffle_epi8(_mm_loadu_si128(at.add(2)), byte_swap);
        let mut w3 = _mm_shuffle_epi8(_mm_loadu_si128(at.add(3)), byte_swap);

        four_rounds!(abef, cdgh, w0, 0);
        four_rounds!(abef, cdgh, w1, 4);
        four_rounds!(abef, cdgh, w2, 8);
        four_rounds!(abef, cdgh, w3, 12);
        // Rounds 16..64: each new group of four words replaces the oldest one.
        w0 = next_words!(w0, w1, w2, w3);
        four_rounds!(abef, cdgh, w0, 16);
        w1 = next_words!(w1, w2, w3, w0);
        four_rounds!(abef, cdgh, w1, 20);
        w2 = next_words!(w2, w3, w0, w1);
        four_rounds!(abef, cdgh, w2, 24);
        w3 = next_words!(w3, w0, w1, w2);
        four_rounds!(abef, cdgh, w3, 28);
        w0 = next_words!(w0, w1, w2, w3);
        four_rounds!(abef, cdgh, w0, 32);
        w1 = next_words!(w1, w2, w3, w0);
        four_rounds!(abef, cdgh, w1, 36);
        w2 = next_words!(w2, w3, w0, w1);
        four_rounds!(abef, cdgh, w2, 40);
        w3 = next_words!(w3, w0, w1, w2);
        four_rounds!(abef, cdgh, w3, 44);
        w0 = next_words!(w0, w1, w2, w3);
        four_rounds!(abef, cdgh, w0, 48);
        w1 = next_words!(w1, w2, w3, w0);
        four_rounds!(abef, cdgh, w1, 52);
        w2 = next_words!(w2, w3, w0, w1);
        four_rounds!(abef, cdgh, w2, 56);
        w3 = next_words!(w3, w0, w1, w2);
        four_rounds!(abef, cdgh, w3, 60);

        abef = _mm_add_epi32(abef, saved_abef);
        cdgh = _mm_add_epi32(cdgh, saved_cdgh);
    }

    let abef_reversed = _mm_shuffle_epi32(abef, 0x1B);
    let ghcd = _mm_shuffle_epi32(cdgh, 0xB1);
    let abcd = _mm_blend_epi16(abef_reversed, ghcd, 0xF0);
    let efgh = _mm_alignr_epi8(ghcd, abef_reversed, 8);
    _mm_storeu_si128(state.as_mut_ptr() as *mut __m128i, abcd);
    _mm_storeu_si128(state.as_mut_ptr().add(4) as *mut __m128i, efgh);
}

/// `compress` of two independent messages of the same number of blocks, their instructions
/// interleaved: a `sha256rnds2` waits for the one before it in its own message, so one message
/// leaves the SHA unit idle most cycles; two keep it about twice as busy.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) unsafe fn compress_pair(state_a: &mut [u32; 8], blocks_a: &[u8], state_b: &mut [u32; 8], blocks_b: &[u8]) {
    debug_assert_eq!(blocks_a.len(), blocks_b.len());
    let byte_swap = _mm_set_epi64x(0x0c0d0e0f_08090a0b, 0x04050607_00010203);

    let load = |state: &[u32; 8]| {
        let abcd = _mm_loadu_si128(state.as_ptr() as *const __m128i);
        let efgh = _mm_loadu_si128(state.as_ptr().add(4) as *const __m128i);
        let badc = _mm_shuffle_epi32(abcd, 0xB1);
        let hgfe = _mm_shuffle_epi32(efgh, 0x1B);
        (_mm_alignr_epi8(badc, hgfe, 8), _mm_blend_epi16(hgfe, badc, 0xF0))
    };
    let (mut abef, mut cdgh) = load(state_a);
    let (mut abef_b, mut cdgh_b) = load(state_b);

    for (block, block_b) in blocks_a.chunks_exact(64).zip(blocks_b.chunks_exact(64)) {
        let (saved_abef, saved_cdgh) = (abef, cdgh);
        let (saved_abef_b, saved_cdgh_b) = (abef_b, cdgh_b);
        let at = block.as_ptr() as *const __m128i;
        let at_b = block_b.as_ptr() as *const __m128i;
        let mut w0 = _mm_shuffle_epi8(_mm_loadu_si128(at), byte_swap);
        let mut w1 = _mm_shuffle_epi8(_mm_loadu_si128(at.add(1)), byte_swap);
        let mut w2 = _mm_shuffle_epi8(_mm_loadu_si128(at.add(2)), byte_swap);
        let mut w3 = _mm_shuffle_epi8(_mm_loadu_si128(at.add(3)), byte_swap);
        let mut v0 = _mm_shuffle_epi8(_mm_loadu_si128(at_b), byte_swap);
        let mut v1 = _mm_shuffle_epi8(_mm_loadu_si128(at_b.add(1)), byte_swap);
        let mut v2 = _mm_shuffle_epi8(_mm_loadu_si128(at_b.add(2)), byte_swap);
        let mut v3 = _mm_shuffle_epi8(_mm_loadu_si128(at_b.add(3)), byte_swap);

        four_rounds!(abef, cdgh, w0, 0);
        four_rounds!(abef_b, cdgh_b, v0, 0);
        four_rounds!(abef, cdgh, w1, 4);
        four_rounds!(abef_b, cdgh_b, v1, 4);
        four_rounds!(abef, cdgh, w2, 8);
        four_rounds!(abef_b, cdgh_b, v2, 8);
        four_rounds!(abef, cdgh, w3, 12);
        four_rounds!(abef_b, cdgh_b, v3, 12);
        // Rounds 16..64 in twelve groups of four, the oldest schedule words replaced in turn.
        let mut t = 16;
        while t < 64 {
            w0 = next_words!(w0, w1, w2, w3);
            v0 = next_words!(v0, v1, v2, v3);
            four_rounds!(abef, cdgh, w0, t);
            four_rounds!(abef_b, cdgh_b, v0, t);
            w1 = next_words!(w1, w2, w3, w0);
            v1 = next_words!(v1, v2, v3, v0);
            four_rounds!(abef, cdgh, w1, t + 4);
            four_rounds!(abef_b, cdgh_b, v1, t + 4);
            w2 = next_words!(w2, w3, w0, w1);
            v2 = next_words!(v2, v3, v0, v1);
            four_rounds!(abef, cdgh, w2, t + 8);
            four_rounds!(abef_b, cdgh_b, v2, t + 8);
            w3 = next_words!(w3, w0, w1, w2);
            v3 = next_words!(v3, v0, v1, v2);
            four_rounds!(abef, cdgh, w3, t + 12);
            four_rounds!(abef_b, cdgh_b, v3, t + 12);
            t += 16;
        }

        abef = _mm_add_epi32(abef, saved_abef);
        cdgh = _mm_add_epi32(cdgh, saved_cdgh);
        abef_b = _mm_add_epi32(abef_b, saved_abef_b);
        cdgh_b = _mm_add_epi32(cdgh_b, saved_cdgh_b);
    }

    let store = |state: &mut [u32; 8], abef: __m128i, cdgh: __m128i| {
        let abef_reversed = _mm_shuffle_epi32(abef, 0x1B);
        let ghcd = _mm_shuffle_epi32(cdgh, 0xB1);
        let abcd = _mm_blend_epi16(abef_reversed, ghcd, 0xF0);
        let efgh = _mm_alignr_epi8(ghcd, abef_reversed, 8);
        _mm_storeu_si128(state.as_mut_ptr() as *mut __m128i, abcd);
        _mm_storeu_si128(state.as_mut_ptr().add(4) as *mut __m128i, efgh);
    };
    store(state_a, abef, cdgh);
    store(state_b, abef_b, cdgh_b);
}
