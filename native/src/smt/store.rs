//! The native node store: SMT nodes held in Rust memory, for trees whose nodes need not live in a
//! database (the in-memory counterpart of src/merkle/smt/in-memory-node-store.ts). Updates and
//! proofs read it directly, with no call into JavaScript, and write sets are applied to it from
//! their flat form, with no object per node.

use super::node_map::NodeMap;
use super::Hash;

pub struct NodeStore {
    pub nodes: NodeMap,
}

/// A write set in the flat form the addon returns (see update::UpdateOutput).
pub struct FlatWriteSet<'a> {
    pub write_hashes: &'a [u8],
    pub write_data: &'a [u8],
    pub write_ends: &'a [u32],
    pub removed: &'a [u8],
}

impl FlatWriteSet<'_> {
    /// Checks that the parts agree: one hash per write, ends ascending within the data.
    pub fn check(&self) -> Result<(), String> {
        if self.write_hashes.len() != self.write_ends.len() * 32 {
            return Err(format!("{} write hashes for {} writes", self.write_hashes.len() / 32, self.write_ends.len()));
        }
        if !self.removed.len().is_multiple_of(32) {
            return Err("removed hashes must be 32 bytes each".into());
        }
        let mut previous = 0u32;
        for &end in self.write_ends {
            if end < previous || end as usize > self.write_data.len() {
                return Err("write ends must ascend within the write data".into());
            }
            previous = end;
        }
        Ok(())
    }
}

impl NodeStore {
    pub fn new() -> NodeStore {
        NodeStore { nodes: NodeMap::with_capacity(1024) }
    }

    /// Stores the writes (after deleting the removed nodes when `prune`), as
    /// InMemorySmtNodeStore.apply does. The write set must have passed `check`.
    pub fn apply(&mut self, writes: &FlatWriteSet, prune: bool) {
        if prune {
            for hash in writes.removed.chunks_exact(32) {
                self.nodes.remove(&to_hash(hash));
            }
        }
        let mut start = 0usize;
        for (hash, &end) in writes.write_hashes.chunks_exact(32).zip(writes.write_ends) {
            self.nodes.insert(to_hash(hash), &writes.write_data[start..end as usize]);
            start = end as usize;
        }
    }
}

impl Default for NodeStore {
    fn default() -> Self {
        Self::new()
    }
}

pub fn to_hash(bytes: &[u8]) -> Hash {
    let mut hash = [0u8; 32];
    hash.copy_from_slice(bytes);
    hash
}
