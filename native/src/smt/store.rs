//! The native node store: SMT nodes held in Rust memory, for trees whose nodes need not live in a
//! database (the in-memory counterpart of src/merkle/smt/in-memory-node-store.ts). Updates and
//! proofs read it directly, with no call into JavaScript, and write sets are applied to it from
//! their flat form, with no object per node.

use super::node_map::NodeMap;
use super::Hash;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard, Weak};

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
        let removed = if prune { writes.removed } else { &[] };
        let starts = std::iter::once(0).chain(writes.write_ends.iter().map(|&end| end as usize));
        let ranges = starts.zip(writes.write_ends).map(|(start, &end)| start..end as usize);
        let nodes = writes.write_hashes.chunks_exact(32).map(to_hash).zip(ranges);
        self.nodes.apply_batch(removed, nodes, writes.write_data);
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

/// A node store that several threads can hold at once: the node's state tree lives in the main
/// thread's store, and worker threads attach to it to compute updates and proofs (a Node.js
/// process loads the addon once, so its memory is shared by every thread). Readers share the
/// lock; applying a write set takes it alone, so an operation never sees half a write set.
#[derive(Clone, Default)]
pub struct SharedStore(Arc<RwLock<NodeStore>>);

/// Stores other threads may attach to, by id. Weak: publishing does not keep a store alive.
static PUBLISHED: Mutex<Vec<(u32, Weak<RwLock<NodeStore>>)>> = Mutex::new(Vec::new());
static NEXT_ID: AtomicU32 = AtomicU32::new(1);

impl SharedStore {
    pub fn new() -> SharedStore {
        SharedStore::default()
    }

    /// The store for reading. A thread that panicked while writing leaves the lock poisoned;
    /// the addon never panics mid-apply on valid input (`FlatWriteSet::check` runs first), so
    /// the data is taken as it is.
    pub fn read(&self) -> RwLockReadGuard<'_, NodeStore> {
        self.0.read().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn write(&self) -> RwLockWriteGuard<'_, NodeStore> {
        self.0.write().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// An id under which other threads can `attach` to this store (the same id every time).
    pub fn publish(&self) -> u32 {
        let mut published = PUBLISHED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        published.retain(|(_, store)| store.strong_count() > 0);
        if let Some((id, _)) = published.iter().find(|(_, store)| store.as_ptr() == Arc::as_ptr(&self.0)) {
            return *id;
        }
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        published.push((id, Arc::downgrade(&self.0)));
        id
    }

    /// The store published under `id`, while any thread still holds it.
    pub fn attach(id: u32) -> Option<SharedStore> {
        let published = PUBLISHED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        published.iter().find(|(known, _)| *known == id).and_then(|(_, store)| store.upgrade()).map(SharedStore)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attached_stores_see_the_same_nodes_until_the_last_holder_drops() {
        let owner = SharedStore::new();
        let id = owner.publish();
        assert_eq!(owner.publish(), id, "publishing twice gives the same id");
        let attached = SharedStore::attach(id).expect("published store");
        owner.write().nodes.insert([7u8; 32], &[1, 2, 3]);
        assert_eq!(attached.read().nodes.get(&[7u8; 32]).as_deref(), Some(&[1u8, 2, 3][..]));
        drop(owner);
        assert!(SharedStore::attach(id).is_some(), "still held by the attached handle");
        drop(attached);
        assert!(SharedStore::attach(id).is_none(), "gone with its last holder");
        assert!(SharedStore::attach(0).is_none());
    }
}
