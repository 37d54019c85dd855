//! Sparse Merkle tree of LIP 0039 as lisk-db implements it (docs/protocol/merkle-trees.md): batch
//! update and multiproof generation, a port of src/merkle/smt (batch-update.ts, prove.ts) that
//! produces the same roots, the same write sets in the same order, and the same proofs.
//!
//! Nodes are read from a `NodeMap`. For a node store that lives in JavaScript (LMDB, or any
//! SmtNodeStore) the map starts empty and is filled through a `NodeSource`, asked for a whole
//! tree level at a time (`prefetch`) so that a batch of 10,000 keys costs a few dozen calls into
//! JavaScript instead of one per node. The native store (`store.rs`) is itself a `NodeMap`, read
//! directly.

pub mod batch;
pub mod codec;
pub mod hash;
pub mod keys;
pub mod node_map;
pub mod prefetch;
pub mod prove;
pub mod snapshot;
#[cfg(test)]
pub(crate) mod speed_test;
pub mod store;
pub mod update;

/// A node hash (SHA-256).
pub type Hash = [u8; 32];

/// Why an SMT operation stopped.
#[derive(Debug)]
pub enum SmtError<E> {
    /// The node store has no node under this hash: it does not hold the tree of the given root.
    Missing(Hash),
    /// The node stored under this hash is not a valid encoding (see codec.rs).
    Malformed(Hash),
    /// A path is longer than the key has bits: the store is corrupt (no valid tree is that deep).
    TooDeep,
    /// The node source failed (for the addon: a JavaScript exception is pending).
    Source(E),
}
