//! BLS12-381 for one job: the proof-of-possession check of LIP 0038.
pub mod fp;
pub mod fp2;
pub mod tower;
