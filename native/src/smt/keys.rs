//! Bit access on keys and proof bitmaps (docs/protocol/merkle-trees.md), as key-bits.ts.

/// Bit `index` of `key`, most significant bit first; 0 beyond the key (as in TypeScript, where
/// reading past the end gives undefined → 0; only a corrupt tree gets there).
#[inline]
pub fn key_bit(key: &[u8], index: usize) -> u8 {
    match key.get(index >> 3) {
        Some(byte) => (byte >> (7 - (index & 7))) & 1,
        None => 0,
    }
}

/// Number of leading bits `a` and `b` share (bounded by the shorter one).
pub fn common_prefix_bits(a: &[u8], b: &[u8]) -> usize {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let diff = x ^ y;
        if diff != 0 {
            return i * 8 + diff.leading_zeros() as usize;
        }
    }
    a.len().min(b.len()) * 8
}

/// Bitmap bit for `depth`: bit d counted from the least significant bit of the last byte.
#[inline]
pub fn bitmap_bit(bitmap: &[u8], depth: usize) -> bool {
    let from_end = depth >> 3;
    if from_end >= bitmap.len() {
        return false;
    }
    (bitmap[bitmap.len() - 1 - from_end] >> (depth & 7)) & 1 == 1
}

/// Bitmap bytes for sibling flags listed root first: ceil(n / 8) bytes, depth 0 in the lowest bit.
pub fn encode_bitmap(flags: &[bool]) -> Vec<u8> {
    let mut bitmap = vec![0u8; (flags.len() + 7) >> 3];
    let last = bitmap.len().wrapping_sub(1);
    for (depth, flag) in flags.iter().enumerate() {
        if *flag {
            bitmap[last - (depth >> 3)] |= 1 << (depth & 7);
        }
    }
    bitmap
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_and_bitmaps() {
        assert_eq!(key_bit(&[0b1000_0000], 0), 1);
        assert_eq!(key_bit(&[0b1000_0000], 1), 0);
        assert_eq!(key_bit(&[0xff], 8), 0);
        assert_eq!(common_prefix_bits(&[0xf0, 0x00], &[0xf0, 0x80]), 8);
        assert_eq!(common_prefix_bits(&[1, 2], &[1, 2]), 16);
        let flags = [true, false, false, false, false, false, false, false, false, true];
        let bitmap = encode_bitmap(&flags);
        assert_eq!(bitmap, vec![0x02, 0x01]);
        for (depth, flag) in flags.iter().enumerate() {
            assert_eq!(bitmap_bit(&bitmap, depth), *flag);
        }
        assert!(!bitmap_bit(&bitmap, 40));
        assert!(encode_bitmap(&[]).is_empty());
    }
}
