//! The output vectors of SMT updates, kept per thread from one update to the next.
//!
//! An update writes its write set (node hashes, node data, removed hashes: a few hundred
//! kilobytes for a block's 300 state changes) into fresh vectors, and those used to become the
//! result's Buffers as they were. Fresh memory of that size comes from the kernel page by page on
//! first touch: about 50 page faults per update, a fifth of its time. The addon now copies the
//! results into new Buffers (a memcpy, much cheaper than the faults) and gives the vectors back
//! here, so the next update on the thread writes into memory that is already mapped.

use crate::smt::update::UpdateOutput;
use crate::smt::Hash;
use std::cell::RefCell;

/// Vectors holding more than this in all are not kept (after a huge batch, such as building a
/// tree from a whole state, the memory goes back to the allocator).
const KEEP_MAX_BYTES: usize = 16 << 20;

thread_local! {
    static KEPT: RefCell<Option<UpdateOutput>> = const { RefCell::new(None) };
}

/// Empty output vectors with room for about `expected_writes` writes: the thread's kept ones
/// when there are (a nested update, from inside a node-reader callback, gets new ones).
pub fn take_output(root: Hash, expected_writes: usize) -> UpdateOutput {
    let mut out = KEPT.with(|kept| kept.borrow_mut().take()).unwrap_or_else(|| UpdateOutput {
        root,
        root_changed: false,
        write_hashes: Vec::new(),
        write_data: Vec::new(),
        write_ends: Vec::new(),
        removed: Vec::new(),
    });
    out.root = root;
    out.root_changed = false;
    for (bytes, per_write) in [(&mut out.write_hashes, 32), (&mut out.write_data, 65), (&mut out.removed, 32)] {
        bytes.clear();
        bytes.reserve(expected_writes * per_write);
    }
    out.write_ends.clear();
    out.write_ends.reserve(expected_writes);
    out
}

/// True when the vectors are small enough to keep for the next update.
pub fn worth_keeping(out: &UpdateOutput) -> bool {
    out.write_hashes.capacity() + out.write_data.capacity() + out.removed.capacity() + out.write_ends.capacity() * 4
        <= KEEP_MAX_BYTES
}

/// Gives the vectors back once their contents were copied out (dropped if too large to keep).
pub fn keep_output(out: UpdateOutput) {
    if worth_keeping(&out) {
        KEPT.with(|kept| *kept.borrow_mut() = Some(out));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_vectors_come_back_empty_with_room() {
        let mut out = take_output([1; 32], 10);
        assert!(out.write_data.capacity() >= 650 && out.write_ends.capacity() >= 10);
        out.write_data.extend_from_slice(&[7; 100]);
        out.write_ends.push(100);
        out.root_changed = true;
        let data = out.write_data.as_ptr();
        keep_output(out);
        let again = take_output([2; 32], 5);
        assert_eq!((again.root, again.root_changed), ([2; 32], false));
        assert!(again.write_data.is_empty() && again.write_ends.is_empty());
        assert_eq!(again.write_data.as_ptr(), data, "the same memory, reused");
        // Too large to keep: dropped.
        keep_output(take_output([0; 32], KEEP_MAX_BYTES));
        assert!(KEPT.with(|kept| kept.borrow().is_none()));
    }
}
