//! The root of a sparse Merkle tree (LIP 0039) built in one go from a set of leaves, with no node
//! store: what a block's eventRoot needs (LIP 0065), where the tree is made from nothing for every
//! block and only its root is kept.
//!
//! The general batch update (smt/update.rs) gives the same root but also encodes every node for a
//! write set and keeps them in a map, which costs several times the hashing itself. Here the
//! leaves are sorted once and the tree is hashed from the bottom of each key range up:
//!
//! - a range with no leaf is the empty hash, a range with one leaf is that leaf's hash (LIP 0039
//!   places a lone leaf at the highest node whose subtree holds no other leaf);
//! - a range of several leaves that all share bits `depth..d` hangs below a chain of branches
//!   whose other child is empty, one per shared bit, and splits at bit `d`.
//!
//! Pure Rust (no N-API), so `cargo test` covers it; the addon binds it in
//! addon/fresh_smt_exports.rs. src/merkle/smt/fresh-root.ts is the TypeScript counterpart.

use crate::sha256;
use crate::smt::hash::{branch_hash, leaf_hash, EMPTY_HASH};
use crate::smt::keys::{common_prefix_bits, key_bit};
use crate::smt::Hash;

/// Prefix of a leaf hash's message (LIP 0039, with lisk-db's tag).
const LEAF_PREFIX: &[u8; 9] = b"LSK_SMTL_";

/// Leaf hashes `H("LSK_SMTL_" ‖ key ‖ value)` of leaves given by a key and a value accessor,
/// two at a time when the CPU can interleave them.
fn leaf_hashes<'a>(count: usize, key: impl Fn(usize) -> &'a [u8], value: impl Fn(usize) -> &'a [u8]) -> Vec<Hash> {
    let mut hashes = Vec::with_capacity(count);
    let mut index = 0;
    // Pairs of short messages (event leaves are 53 bytes: one block) go through the interleaved
    // compression; anything else one at a time.
    while index + 1 < count {
        let (first_key, first_value) = (key(index), value(index));
        let (second_key, second_value) = (key(index + 1), value(index + 1));
        let first_length = LEAF_PREFIX.len() + first_key.len() + first_value.len();
        let second_length = LEAF_PREFIX.len() + second_key.len() + second_value.len();
        if first_length + 9 > 128 || second_length + 9 > 128 {
            hashes.push(leaf_hash(first_key, first_value));
            index += 1;
            continue;
        }
        let mut first = [0u8; 128];
        let mut second = [0u8; 128];
        fill_leaf_message(&mut first, first_key, first_value);
        fill_leaf_message(&mut second, second_key, second_value);
        let (a, b) = sha256::digest_padded_pair_in_place(&mut first, first_length, &mut second, second_length);
        hashes.push(a);
        hashes.push(b);
        index += 2;
    }
    if index < count {
        hashes.push(leaf_hash(key(index), value(index)));
    }
    hashes
}

fn fill_leaf_message(message: &mut [u8; 128], key: &[u8], value: &[u8]) {
    message[..9].copy_from_slice(LEAF_PREFIX);
    message[9..9 + key.len()].copy_from_slice(key);
    message[9 + key.len()..9 + key.len() + value.len()].copy_from_slice(value);
}

/// Root of the tree holding the leaves of `sorted`: `key_length`-byte keys back to back in
/// strictly ascending order, `leaves[i]` the leaf hash of key i. No leaves: the empty hash.
pub fn root_of_sorted(sorted: &[u8], key_length: usize, leaves: &[Hash]) -> Hash {
    debug_assert_eq!(sorted.len(), leaves.len() * key_length);
    if leaves.is_empty() {
        return EMPTY_HASH;
    }
    let keys = SortedKeys { bytes: sorted, key_length };
    let mut root = subtree(&keys, leaves, 0, leaves.len(), 0);
    root.climb_alone(&keys);
    root.hash
}

struct SortedKeys<'a> {
    bytes: &'a [u8],
    key_length: usize,
}

impl SortedKeys<'_> {
    #[inline]
    fn key(&self, index: usize) -> &[u8] {
        &self.bytes[index * self.key_length..(index + 1) * self.key_length]
    }
}

/// A subtree's hash at depth `bottom` that still has to climb to depth `top` through branches
/// whose other child is empty, the side given by the bits of key `key`. Climbs are left pending
/// so that the two children of a split climb together: their hashes do not depend on each other,
/// and two SHA-256 computations interleaved take little more time than one.
struct Pending {
    hash: Hash,
    key: usize,
    top: usize,
    bottom: usize,
}

/// The message `"LSK_SMTB_" ‖ left ‖ right` (73 bytes) in a zeroed 128-byte buffer.
#[inline]
fn branch_message(message: &mut [u8; 128], left: &Hash, right: &Hash) {
    message[..9].copy_from_slice(BRANCH_PREFIX);
    message[9..41].copy_from_slice(left);
    message[41..73].copy_from_slice(right);
}

/// Prefix of a branch hash's message, and the message's length with both child hashes.
const BRANCH_PREFIX: &[u8; 9] = b"LSK_SMTB_";
const BRANCH_MESSAGE_LENGTH: usize = 73;

impl Pending {
    /// One level up: the branch at depth `bottom - 1` with this subtree on its key's side.
    #[inline]
    fn step_message(&mut self, keys: &SortedKeys, message: &mut [u8; 128]) {
        self.bottom -= 1;
        if key_bit(keys.key(self.key), self.bottom) == 1 {
            branch_message(message, &EMPTY_HASH, &self.hash);
        } else {
            branch_message(message, &self.hash, &EMPTY_HASH);
        }
    }

    fn climb_alone(&mut self, keys: &SortedKeys) {
        let mut message = [0u8; 128];
        while self.bottom > self.top {
            self.step_message(keys, &mut message);
            self.hash = sha256::digest_padded_in_place(&mut message, BRANCH_MESSAGE_LENGTH);
        }
    }

    /// Climbs both to their tops, two hashes at a time while both have levels left.
    fn climb_together(&mut self, other: &mut Pending, keys: &SortedKeys) {
        let mut first = [0u8; 128];
        let mut second = [0u8; 128];
        while self.bottom > self.top && other.bottom > other.top {
            self.step_message(keys, &mut first);
            other.step_message(keys, &mut second);
            (self.hash, other.hash) = sha256::digest_padded_pair_in_place(
                &mut first,
                BRANCH_MESSAGE_LENGTH,
                &mut second,
                BRANCH_MESSAGE_LENGTH,
            );
        }
        self.climb_alone(keys);
        other.climb_alone(keys);
    }
}

/// The node at `depth` whose subtree holds exactly the leaves `start..end` (at least one), as a
/// pending climb from the node where its leaves split (or from the lone leaf).
fn subtree(keys: &SortedKeys, leaves: &[Hash], start: usize, end: usize, depth: usize) -> Pending {
    if end - start == 1 {
        return Pending { hash: leaves[start], key: start, top: depth, bottom: depth };
    }
    // Distinct sorted keys: the first and the last share exactly the bits that all of them share.
    let split_depth = common_prefix_bits(keys.key(start), keys.key(end - 1));
    // The first key whose bit at the split depth is 1 (the zeros come first).
    let (mut low, mut high) = (start + 1, end - 1);
    while low < high {
        let middle = (low + high) / 2;
        if key_bit(keys.key(middle), split_depth) == 1 {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    let mut left = subtree(keys, leaves, start, low, split_depth + 1);
    let mut right = subtree(keys, leaves, low, end, split_depth + 1);
    left.climb_together(&mut right, keys);
    Pending { hash: branch_hash(&left.hash, &right.hash), key: start, top: depth, bottom: split_depth }
}

/// Root of a tree built from nothing by one batch update with these entries: `keys` holds
/// `key_length`-byte keys back to back, value i is `values[value_ends[i - 1]..value_ends[i]]`.
/// As in the batch update, a repeated key keeps its last value and an empty value leaves its key
/// out.
pub fn root_of_entries(key_length: usize, keys: &[u8], values: &[u8], value_ends: &[usize]) -> Hash {
    let count = value_ends.len();
    debug_assert_eq!(keys.len(), count * key_length);
    let key_at = |i: usize| &keys[i * key_length..(i + 1) * key_length];
    let value_at = |i: usize| &values[if i == 0 { 0 } else { value_ends[i - 1] }..value_ends[i]];
    let mut order: Vec<u32> = (0..count as u32).collect();
    // Stable: equal keys keep their input order, so the last of a run is the last write.
    order.sort_by(|&a, &b| key_at(a as usize).cmp(key_at(b as usize)));
    let mut kept: Vec<u32> = Vec::with_capacity(count);
    for (position, &entry) in order.iter().enumerate() {
        if let Some(&next) = order.get(position + 1) {
            if key_at(entry as usize) == key_at(next as usize) {
                continue;
            }
        }
        if !value_at(entry as usize).is_empty() {
            kept.push(entry);
        }
    }
    let mut sorted = Vec::with_capacity(kept.len() * key_length);
    for &entry in &kept {
        sorted.extend_from_slice(key_at(entry as usize));
    }
    let leaves = leaf_hashes(kept.len(), |i| key_at(kept[i] as usize), |i| value_at(kept[i] as usize));
    root_of_sorted(&sorted, key_length, &leaves)
}

/// Bytes of H(topic) at the start of an event key (LIP 0065).
const TOPIC_HASH_BYTES: usize = 8;
/// Key length of the event tree: 8 bytes of H(topic) ‖ uint32 big-endian index.
pub const EVENT_KEY_LENGTH: usize = TOPIC_HASH_BYTES + 4;

/// The events of one block, flat.
pub struct FlatEvents<'a> {
    /// Encoded events back to back; event i ends at `event_ends[i]`.
    pub encoded: &'a [u8],
    pub event_ends: &'a [u32],
    /// Every event's topics back to back, in event order; topic j ends at `topic_ends[j]`.
    pub topics: &'a [u8],
    pub topic_ends: &'a [u32],
    /// Event i owns the topics from `event_topic_ends[i - 1]` (0 for the first) to `event_topic_ends[i]`.
    pub event_topic_ends: &'a [u32],
    /// `index << 2` of each event as a uint32 (topic t's key ends with this plus t).
    pub index_words: &'a [u32],
}

/// Why flat events cannot be read.
#[derive(Debug, PartialEq, Eq)]
pub enum FlatEventsError {
    /// An offset array is out of order, does not fit its data, or the arrays disagree in length.
    Inconsistent(&'static str),
    /// A topic's index word (`index << 2` plus its position) does not fit in 32 bits.
    IndexOverflow,
}

/// An end offset array as ranges, checked to be ascending and to end exactly at `total`.
pub fn ranges(ends: &[u32], total: usize, what: &'static str) -> Result<Vec<(usize, usize)>, FlatEventsError> {
    let mut result = Vec::with_capacity(ends.len());
    let mut start = 0usize;
    for &end in ends {
        let end = end as usize;
        if end < start || end > total {
            return Err(FlatEventsError::Inconsistent(what));
        }
        result.push((start, end));
        start = end;
    }
    if start != total {
        return Err(FlatEventsError::Inconsistent(what));
    }
    Ok(result)
}

/// Block eventRoot (LIP 0065): for each event and each of its topics t, the leaf with key
/// H(topic)[0..8) ‖ uint32be((index << 2) + t) and value H(encoded event).
pub fn event_root(events: &FlatEvents) -> Result<Hash, FlatEventsError> {
    let count = events.event_ends.len();
    if events.event_topic_ends.len() != count || events.index_words.len() != count {
        return Err(FlatEventsError::Inconsistent("one entry per event"));
    }
    let event_ranges = ranges(events.event_ends, events.encoded.len(), "event ends")?;
    let topic_ranges = ranges(events.topic_ends, events.topics.len(), "topic ends")?;
    let owned = ranges(events.event_topic_ends, topic_ranges.len(), "event topic ends")?;

    let values: Vec<Hash> =
        event_ranges.iter().map(|&(start, end)| sha256::digest(&events.encoded[start..end])).collect();
    let leaf_count = topic_ranges.len();
    let mut keys = vec![0u8; leaf_count * EVENT_KEY_LENGTH];
    let mut value_of = Vec::with_capacity(leaf_count);
    for (event, &(first, last)) in owned.iter().enumerate() {
        for topic in first..last {
            let word = u64::from(events.index_words[event]) + (topic - first) as u64;
            let word = u32::try_from(word).map_err(|_| FlatEventsError::IndexOverflow)?;
            let (start, end) = topic_ranges[topic];
            let key = &mut keys[topic * EVENT_KEY_LENGTH..(topic + 1) * EVENT_KEY_LENGTH];
            key[..TOPIC_HASH_BYTES].copy_from_slice(&sha256::digest(&events.topics[start..end])[..TOPIC_HASH_BYTES]);
            key[TOPIC_HASH_BYTES..].copy_from_slice(&word.to_be_bytes());
            value_of.push(event as u32);
        }
    }

    // Sort by the whole 12-byte key as one integer; ties (a repeated key) by position, so that
    // the last write of a key wins as in the batch update.
    let key_word = |leaf: usize| {
        let key = &keys[leaf * EVENT_KEY_LENGTH..(leaf + 1) * EVENT_KEY_LENGTH];
        let mut word = [0u8; 16];
        word[4..].copy_from_slice(key);
        u128::from_be_bytes(word)
    };
    let mut order: Vec<(u128, u32)> = (0..leaf_count).map(|leaf| (key_word(leaf), leaf as u32)).collect();
    order.sort_unstable();
    let mut kept: Vec<u32> = Vec::with_capacity(leaf_count);
    for (position, &(word, leaf)) in order.iter().enumerate() {
        if order.get(position + 1).is_some_and(|&(next, _)| next == word) {
            continue;
        }
        kept.push(leaf);
    }
    let mut sorted = Vec::with_capacity(kept.len() * EVENT_KEY_LENGTH);
    for &leaf in &kept {
        let leaf = leaf as usize;
        sorted.extend_from_slice(&keys[leaf * EVENT_KEY_LENGTH..(leaf + 1) * EVENT_KEY_LENGTH]);
    }
    let leaves = leaf_hashes(
        kept.len(),
        |i| &sorted[i * EVENT_KEY_LENGTH..(i + 1) * EVENT_KEY_LENGTH],
        |i| &values[value_of[kept[i] as usize] as usize],
    );
    Ok(root_of_sorted(&sorted, EVENT_KEY_LENGTH, &leaves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Deterministic bytes: SHA-256 in counter mode, so that a failing seed can be replayed.
    fn pseudo_random(length: usize, seed: u64) -> Vec<u8> {
        (0..length.div_ceil(32) as u64)
            .flat_map(|block| sha256::digest(&[seed.to_le_bytes(), block.to_le_bytes()].concat()))
            .take(length)
            .collect()
    }

    /// The root straight from LIP 0039's definition, one level at a time: an empty subtree is the
    /// empty hash, a subtree with one leaf is that leaf, any other is the branch of its halves.
    /// The entries are applied in order to a map first (last write wins, empty deletes).
    fn reference_root(key_length: usize, keys: &[u8], values: &[u8], value_ends: &[usize]) -> Hash {
        let mut set = BTreeMap::new();
        for (i, &end) in value_ends.iter().enumerate() {
            let key = keys[i * key_length..(i + 1) * key_length].to_vec();
            let value = values[if i == 0 { 0 } else { value_ends[i - 1] }..end].to_vec();
            if value.is_empty() {
                set.remove(&key);
            } else {
                set.insert(key, value);
            }
        }
        let leaves: Vec<(Vec<u8>, Vec<u8>)> = set.into_iter().collect();
        fn node(leaves: &[(Vec<u8>, Vec<u8>)], depth: usize) -> Hash {
            match leaves {
                [] => EMPTY_HASH,
                [(key, value)] => leaf_hash(key, value),
                _ => {
                    let split = leaves.partition_point(|(key, _)| key_bit(key, depth) == 0);
                    branch_hash(&node(&leaves[..split], depth + 1), &node(&leaves[split..], depth + 1))
                }
            }
        }
        node(&leaves, 0)
    }

    fn flat_values(values: &[Vec<u8>]) -> (Vec<u8>, Vec<usize>) {
        let mut bytes = Vec::new();
        let mut ends = Vec::new();
        for value in values {
            bytes.extend_from_slice(value);
            ends.push(bytes.len());
        }
        (bytes, ends)
    }

    #[test]
    fn empty_and_single_leaf() {
        assert_eq!(root_of_entries(12, &[], &[], &[]), EMPTY_HASH);
        let key = [5u8; 12];
        let value = [9u8; 32];
        assert_eq!(root_of_entries(12, &key, &value, &[32]), leaf_hash(&key, &value));
        // An empty value leaves its key out.
        assert_eq!(root_of_entries(12, &key, &[], &[0]), EMPTY_HASH);
    }

    #[test]
    fn matches_the_definition_on_random_and_adversarial_batches() {
        for seed in 0..300u64 {
            let key_length = [1usize, 2, 12, 32][seed as usize % 4];
            let count = (seed as usize * 37) % 700;
            let mut keys = pseudo_random(count * key_length, seed);
            // Shared prefixes: copy a neighbour's key up to a random bit-aligned cut.
            for i in 1..count {
                let choice = pseudo_random(2, seed * 1000 + i as u64);
                if choice[0] < 128 {
                    let cut = choice[1] as usize % (key_length + 1);
                    let (before, after) = keys.split_at_mut(i * key_length);
                    after[..cut].copy_from_slice(&before[(i - 1) * key_length..(i - 1) * key_length + cut]);
                }
                // Repeats, some with an empty value.
                if choice[1] < 20 && i >= 2 {
                    let (before, after) = keys.split_at_mut(i * key_length);
                    after[..key_length].copy_from_slice(&before[(i - 2) * key_length..(i - 1) * key_length]);
                }
            }
            let values: Vec<Vec<u8>> = (0..count)
                .map(|i| {
                    let length = [32usize, 0, 1, 80, 200][pseudo_random(1, seed * 7 + i as u64)[0] as usize % 5];
                    let length = if length == 0 && pseudo_random(1, seed + i as u64)[0] > 40 { 32 } else { length };
                    pseudo_random(length, seed * 13 + i as u64)
                })
                .collect();
            let (value_bytes, value_ends) = flat_values(&values);
            assert_eq!(
                root_of_entries(key_length, &keys, &value_bytes, &value_ends),
                reference_root(key_length, &keys, &value_bytes, &value_ends),
                "seed {seed}, {count} keys of {key_length} bytes"
            );
        }
    }

    #[test]
    fn keys_that_differ_only_in_the_last_bit() {
        let mut keys = vec![0xffu8; 24];
        keys[23] = 0xfe;
        let values = [1u8; 64];
        assert_eq!(root_of_entries(12, &keys, &values, &[32, 64]), reference_root(12, &keys, &values, &[32, 64]));
    }

    #[test]
    fn event_root_is_the_root_of_the_event_leaves() {
        for seed in 0..60u64 {
            let event_count = (seed as usize * 11) % 200;
            let shared_topic = pseudo_random(33, seed);
            let (mut encoded, mut event_ends) = (Vec::new(), Vec::new());
            let (mut topics, mut topic_ends, mut event_topic_ends, mut index_words) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let (mut leaf_keys, mut leaf_values) = (Vec::new(), Vec::new());
            for event in 0..event_count {
                let bytes = pseudo_random(20 + event % 150, seed * 100 + event as u64);
                encoded.extend_from_slice(&bytes);
                event_ends.push(encoded.len() as u32);
                let value = sha256::digest(&bytes);
                // Every third seed repeats indices, so that some keys repeat (the last write wins).
                let index = (event as u32) % if seed % 3 == 0 { 37 } else { 1000 };
                let topic_count = event % 5;
                for t in 0..topic_count {
                    let topic = if t == 0 {
                        shared_topic.clone()
                    } else {
                        pseudo_random(20, seed * 10_000 + (event * 5 + t) as u64)
                    };
                    topics.extend_from_slice(&topic);
                    topic_ends.push(topics.len() as u32);
                    let mut key = sha256::digest(&topic)[..8].to_vec();
                    key.extend_from_slice(&((index << 2) + t as u32).to_be_bytes());
                    leaf_keys.extend_from_slice(&key);
                    leaf_values.push(value.to_vec());
                }
                event_topic_ends.push(topic_ends.len() as u32);
                index_words.push(index << 2);
            }
            let (value_bytes, value_ends) = flat_values(&leaf_values);
            let flat = FlatEvents {
                encoded: &encoded,
                event_ends: &event_ends,
                topics: &topics,
                topic_ends: &topic_ends,
                event_topic_ends: &event_topic_ends,
                index_words: &index_words,
            };
            assert_eq!(
                event_root(&flat),
                Ok(reference_root(EVENT_KEY_LENGTH, &leaf_keys, &value_bytes, &value_ends)),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn event_root_rejects_inconsistent_input() {
        let flat = FlatEvents {
            encoded: &[1, 2, 3],
            event_ends: &[2],
            topics: &[],
            topic_ends: &[],
            event_topic_ends: &[0],
            index_words: &[0],
        };
        assert_eq!(event_root(&flat), Err(FlatEventsError::Inconsistent("event ends")));
        let flat = FlatEvents {
            encoded: &[1],
            event_ends: &[1],
            topics: &[7; 5],
            topic_ends: &[1, 2, 3, 4, 5],
            event_topic_ends: &[5],
            index_words: &[u32::MAX - 3],
        };
        assert_eq!(event_root(&flat), Err(FlatEventsError::IndexOverflow));
    }
}
