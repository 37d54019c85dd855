//! LIP 0039 node hashes with lisk-db's prefixes.

use super::Hash;
use crate::sha256;

/// SHA-256 of the empty string: the hash of an empty node and the root of the empty tree.
pub const EMPTY_HASH: Hash = [
    0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24, 0x27, 0xae, 0x41,
    0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55,
];

const LEAF_PREFIX: &[u8; 9] = b"LSK_SMTL_";
const BRANCH_PREFIX: &[u8; 9] = b"LSK_SMTB_";
pub const NODE_PREFIX_LENGTH: usize = 9;

/// The hash prefix of a node whose stored data starts with `tag` (codec.rs: anything but the
/// leaf tag is a branch).
#[inline]
pub fn node_prefix(tag: u8) -> &'static [u8; NODE_PREFIX_LENGTH] {
    if tag == super::codec::LEAF_TAG {
        LEAF_PREFIX
    } else {
        BRANCH_PREFIX
    }
}

#[inline]
pub fn is_empty(hash: &Hash) -> bool {
    *hash == EMPTY_HASH
}

/// `H("LSK_SMTB_" ‖ left ‖ right)`: always 73 bytes, two blocks once padded, assembled on the
/// stack.
#[inline]
pub fn branch_hash(left: &Hash, right: &Hash) -> Hash {
    let mut message = [0u8; 128];
    message[..9].copy_from_slice(BRANCH_PREFIX);
    message[9..41].copy_from_slice(left);
    message[41..73].copy_from_slice(right);
    sha256::digest_padded_in_place(&mut message, 73)
}

/// `H("LSK_SMTL_" ‖ key ‖ value)`.
#[inline]
pub fn leaf_hash(key: &[u8], value: &[u8]) -> Hash {
    let length = LEAF_PREFIX.len() + key.len() + value.len();
    // Room for the padding too (a 0x80 byte and the 8-byte length).
    if length + 9 <= 256 {
        let mut message = [0u8; 256];
        message[..9].copy_from_slice(LEAF_PREFIX);
        message[9..9 + key.len()].copy_from_slice(key);
        message[9 + key.len()..length].copy_from_slice(value);
        sha256::digest_padded_in_place(&mut message, length)
    } else {
        sha256::digest_parts(&[LEAF_PREFIX, key, value])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_hash_is_sha256_of_nothing() {
        assert_eq!(EMPTY_HASH, sha256::digest(b""));
    }

    #[test]
    fn leaf_hash_of_long_values_matches_short_path() {
        let key = [7u8; 32];
        let value = vec![9u8; 300];
        assert_eq!(leaf_hash(&key, &value), sha256::digest(&[LEAF_PREFIX.as_slice(), &key, &value].concat()));
        for length in 0..value.len() {
            assert_eq!(
                leaf_hash(&key, &value[..length]),
                sha256::digest(&[LEAF_PREFIX.as_slice(), &key, &value[..length]].concat()),
                "value of {length} bytes"
            );
        }
        assert_eq!(
            branch_hash(&[1; 32], &[2; 32]),
            sha256::digest(&[BRANCH_PREFIX.as_slice(), &[1; 32], &[2; 32]].concat())
        );
    }
}
