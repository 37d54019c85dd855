//! Basalt's native addon (see docs/architecture.md): SHA-256 with the CPU's SHA extensions and the
//! sparse Merkle tree's batch update and proof generation, behind hand-written N-API bindings.
//! Every exported function has a TypeScript counterpart with the same contract (src/merkle,
//! src/crypto); src/native loads this addon when it was built and the tests compare both.
//!
//! The pure parts (`sha256`, `smt`) know nothing of N-API, so `cargo test` runs them without
//! node; the bindings (`napi`, `addon`) reference node's symbols and are left out of test builds.

pub mod bls12_381;
pub mod fresh_smt;
pub mod sha256;
pub mod smt;
pub mod smt_output;

#[cfg(not(test))]
mod addon;
#[cfg(not(test))]
mod napi;
