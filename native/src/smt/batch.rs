//! The keys and values of one update, sorted by key with duplicates removed (the last write of a
//! key wins), held in two flat arrays. Same semantics as sort-entries.ts.

use super::keys::key_bit;
use std::cmp::Ordering;

pub struct SortedBatch {
    key_length: usize,
    /// Keys in ascending order, `key_length` bytes each.
    keys: Vec<u8>,
    /// All values, back to back; value i is `values[ends[i - 1]..ends[i]]`.
    values: Vec<u8>,
    ends: Vec<usize>,
    /// inserts_before[i] = number of non-empty values among entries [0, i); None without deletes.
    inserts_before: Option<Vec<u32>>,
}

impl SortedBatch {
    /// Sorts `count` entries given as flat arrays (`keys`: `count * key_length` bytes; value i is
    /// `values[value_ends[i - 1]..value_ends[i]]`).
    pub fn new(key_length: usize, keys: &[u8], values: &[u8], value_ends: &[usize]) -> SortedBatch {
        let count = value_ends.len();
        let key_at = |i: usize| &keys[i * key_length..(i + 1) * key_length];
        let value_at = |i: usize| {
            let start = if i == 0 { 0 } else { value_ends[i - 1] };
            &values[start..value_ends[i]]
        };
        // Sorted by the keys' first eight bytes as one big-endian integer, then by the whole key
        // (keys are hashes: a tie on eight bytes is nearly always a repeated key), then by input
        // position, so that equal keys keep their input order and the last of a run is the last
        // write. Comparing integers instead of calling memcmp on slices halves the sort.
        let prefix = |i: usize| {
            let key = key_at(i);
            let mut word = [0u8; 8];
            let take = key.len().min(8);
            word[..take].copy_from_slice(&key[..take]);
            u64::from_be_bytes(word)
        };
        let mut sortable: Vec<(u64, u32)> = (0..count).map(|i| (prefix(i), i as u32)).collect();
        sortable.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0).then_with(|| key_at(a.1 as usize).cmp(key_at(b.1 as usize))).then(a.1.cmp(&b.1))
        });
        let order: Vec<u32> = sortable.into_iter().map(|(_, entry)| entry).collect();

        let mut batch = SortedBatch {
            key_length,
            keys: Vec::with_capacity(keys.len()),
            values: Vec::with_capacity(values.len()),
            ends: Vec::with_capacity(count),
            inserts_before: None,
        };
        for (position, &entry) in order.iter().enumerate() {
            let entry = entry as usize;
            if let Some(&next) = order.get(position + 1) {
                if key_at(entry) == key_at(next as usize) {
                    continue;
                }
            }
            batch.keys.extend_from_slice(key_at(entry));
            batch.values.extend_from_slice(value_at(entry));
            batch.ends.push(batch.values.len());
        }
        if (0..batch.len()).any(|i| batch.value(i).is_empty()) {
            let mut counts = Vec::with_capacity(batch.len() + 1);
            counts.push(0u32);
            for i in 0..batch.len() {
                counts.push(counts[i] + u32::from(!batch.value(i).is_empty()));
            }
            batch.inserts_before = Some(counts);
        }
        batch
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn key_length(&self) -> usize {
        self.key_length
    }

    #[inline]
    pub fn key(&self, i: usize) -> &[u8] {
        &self.keys[i * self.key_length..(i + 1) * self.key_length]
    }

    #[inline]
    pub fn value(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.values[start..self.ends[i]]
    }

    /// Number of non-empty values (inserts or changes) among entries [lo, hi).
    #[inline]
    pub fn count_inserts(&self, lo: usize, hi: usize) -> usize {
        match &self.inserts_before {
            None => hi - lo,
            Some(counts) => (counts[hi] - counts[lo]) as usize,
        }
    }

    /// First index in [lo, hi) whose key has bit `depth` set (the keys there share bits above).
    #[inline]
    pub fn split_index(&self, lo: usize, hi: usize, depth: usize) -> usize {
        let (mut low, mut high) = (lo, hi);
        while low < high {
            let middle = (low + high) >> 1;
            if key_bit(self.key(middle), depth) == 1 {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        low
    }

    /// True if `key` is one of the keys [lo, hi).
    pub fn contains_key(&self, key: &[u8], lo: usize, hi: usize) -> bool {
        let (mut low, mut high) = (lo, hi);
        while low < high {
            let middle = (low + high) >> 1;
            match self.key(middle).cmp(key) {
                Ordering::Equal => return true,
                Ordering::Less => low = middle + 1,
                Ordering::Greater => high = middle,
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_and_keeps_the_last_write() {
        let keys = [3u8, 1, 3, 2];
        let values = [b'a', b'b', b'c'];
        // values: "a", "b", "", "c" (entry 2 deletes key 3 ... but entry 0 came first).
        let batch = SortedBatch::new(1, &keys, &values, &[1, 2, 2, 3]);
        assert_eq!(batch.len(), 3);
        assert_eq!((batch.key(0), batch.value(0)), (&[1u8][..], &b"b"[..]));
        assert_eq!((batch.key(1), batch.value(1)), (&[2u8][..], &b"c"[..]));
        assert_eq!((batch.key(2), batch.value(2)), (&[3u8][..], &b""[..]));
        assert_eq!(batch.count_inserts(0, 3), 2);
        assert!(batch.contains_key(&[2], 0, 3));
        assert!(!batch.contains_key(&[4], 0, 3));
        assert_eq!(batch.split_index(0, 3, 6), 1);
    }
}
