//! One batch update of a sparse Merkle tree (LIP 0039 "Root Hash Calculation" and "Removing a
//! Leaf Node" in one pass). A line-by-line port of batch-update.ts: the same
//! recursion in the same order, so the write set lists the same nodes in the same order. See that
//! file for the algorithm; the comments here are about what differs in Rust.
//!
//! batch-update.ts learns that a subtree did not change by getting back the very Buffer object it
//! passed down. Here every step returns a `Step` whose `same` flag carries that fact: true when
//! the returned hash is the node the step was given, untouched.

use super::batch::SortedBatch;
use super::codec::{encode_branch, encode_leaf, LEAF_TAG};
use super::hash::{branch_hash, is_empty, leaf_hash, node_prefix, EMPTY_HASH, NODE_PREFIX_LENGTH};
use super::keys::key_bit;
use super::node_map::{prefetch, NodeMap, NodeSource};
use super::prefetch::{plan_node, prefetch_update, Fetching, InPlace, Planned, PlannedNode, Reader, UNPLANNED};
use super::{Hash, SmtError};
use crate::sha256;
use std::cell::RefCell;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Empty,
    Leaf,
    Branch,
    /// An untouched non-empty node not read yet.
    Unknown,
}

/// What a batch does to a leaf that stands where its keys go.
enum LeafOutcome {
    Unchanged,
    Deleted,
    Replaced,
    /// Other keys arrive: the leaf goes down until their paths part.
    PushedDown,
}

/// No write: the step's node is one that exists already, its hash known.
const NO_WRITE: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Step {
    /// The node's hash; meaningless while `write` names a new node (hashed at the end).
    hash: Hash,
    /// The write that creates this node, if it is new (NO_WRITE otherwise).
    write: u32,
    kind: Kind,
    /// The result is the node the step was given (nothing below it changed).
    same: bool,
}

impl Step {
    fn unchanged(hash: Hash, kind: Kind) -> Step {
        Step { hash, write: NO_WRITE, kind, same: true }
    }

    fn empty() -> Step {
        Step { hash: EMPTY_HASH, write: NO_WRITE, kind: Kind::Empty, same: false }
    }

    fn written(write: u32, kind: Kind) -> Step {
        Step { hash: [0; 32], write, kind, same: false }
    }
}

/// New nodes are not hashed as the recursion creates them: each would wait for the one below,
/// one hash at a time, where independent nodes can be hashed two at once
/// (`sha256::digest_padded_pair_in_place`). Writes are hashed a run at a time instead (once
/// `HASH_RUN` are pending, and at the end), while their data is still in the cache. A new
/// branch whose new child is not hashed yet gets zeros in place of the child's hash, patched in
/// when the child is hashed; within a run, writes are hashed by height (a new node's pending
/// children are lower), so no pair holds a node and its parent. The write set keeps the
/// recursion's order.
#[derive(Default)]
struct Deferred {
    /// Writes [0, hashed) have their hashes in `write_hashes`.
    hashed: usize,
    /// Per write: 0 if no child of it is pending, else one more than its highest pending child.
    heights: Vec<u16>,
    /// Per write: where its hash goes in its parent's data (u32::MAX: no new parent yet).
    patches: Vec<u32>,
    /// Scratch for the hashing order.
    counts: Vec<u32>,
    order: Vec<u32>,
}

/// Pending writes that start a round of hashing: enough for pairs at every height, few enough
/// that their data is still in the cache.
const HASH_RUN: usize = 512;

/// The new root and the write set, flat: write i is `write_hashes[32 i..32 i + 32]` with data
/// `write_data[write_ends[i - 1]..write_ends[i]]`; removed hash j is `removed[32 j..32 j + 32]`.
pub struct UpdateOutput {
    pub root: Hash,
    /// False when the root is the one given (nothing changed, nothing written or removed).
    pub root_changed: bool,
    pub write_hashes: Vec<u8>,
    pub write_data: Vec<u8>,
    pub write_ends: Vec<u32>,
    pub removed: Vec<u8>,
}

struct Update<'a, R: Reader> {
    reader: R,
    batch: &'a SortedBatch,
    /// What the prefetch found (entry 0: the root).
    plan: Vec<Planned>,
    /// The bytes of the leaves the update reads (see `PlannedNode::Leaf`).
    leaves: Vec<u8>,
    key_length: usize,
    out: UpdateOutput,
    deferred: Deferred,
}

pub static EXPERIMENT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

thread_local! {
    /// The plan of the thread's last update, kept for the next one (its memory, megabytes for a
    /// large batch, is then already mapped and warm).
    static PLAN: RefCell<(Vec<Planned>, Vec<u8>)> = const { RefCell::new((Vec::new(), Vec::new())) };
    /// Likewise the bookkeeping of deferred hashing.
    static DEFERRED: RefCell<Option<Deferred>> = const { RefCell::new(None) };
}

/// Applies `batch` below `root` (the empty tree: EMPTY_HASH), reading nodes from `nodes` and, for
/// those it lacks, from `source`. Nothing is removed from `nodes`: the store is only read. When
/// `nodes` is empty and the source is a map itself (the native store), that map is read in place.
pub fn update<S: NodeSource>(
    source: &mut S,
    nodes: &mut NodeMap,
    batch: &SortedBatch,
    root: &Hash,
) -> Result<UpdateOutput, SmtError<S::Error>> {
    if nodes.is_empty() {
        if let Some(map) = source.resident() {
            return run(InPlace::new(map), batch, root);
        }
    }
    run(Fetching { source, nodes }, batch, root)
}

fn run<R: Reader>(mut reader: R, batch: &SortedBatch, root: &Hash) -> Result<UpdateOutput, SmtError<R::Error>> {
    let (mut plan, mut leaves) = PLAN.with(|plan| std::mem::take(&mut *plan.borrow_mut()));
    plan.reserve(batch.len() * 10);
    prefetch_update(&mut reader, batch, root, &mut plan, &mut leaves).map_err(SmtError::Source)?;
    let root_entry = if plan.is_empty() { UNPLANNED } else { 0 };
    // Rough sizes: about ten branches rewritten per key in large trees.
    let expected_writes = batch.len() * 10;
    let mut run = Update {
        reader,
        batch,
        plan,
        leaves,
        key_length: batch.key_length(),
        out: crate::smt_output::take_output(*root, expected_writes),
        deferred: DEFERRED.with(|kept| kept.borrow_mut().take()).unwrap_or_default(),
    };
    run.deferred.hashed = 0;
    run.deferred.heights.clear();
    run.deferred.patches.clear();
    let step = run.update_node(*root, 0, 0, batch.len(), root_entry);
    if step.is_ok() {
        run.hash_pending();
    }
    let kept = (std::mem::take(&mut run.plan), std::mem::take(&mut run.leaves));
    PLAN.with(|plan| *plan.borrow_mut() = kept);
    let deferred = std::mem::take(&mut run.deferred);
    DEFERRED.with(|kept| *kept.borrow_mut() = Some(deferred));
    let step = step?;
    run.out.root = if step.write == NO_WRITE { step.hash } else { run.written_hash(step.write) };
    run.out.root_changed = !step.same;
    Ok(run.out)
}

impl<'a, R: Reader> Update<'a, R> {
    /// Position of the node stored under `hash`, reading it from the source if the prefetch did
    /// not (only untouched siblings, when a collapse needs to know their kind).
    fn load(&mut self, hash: &Hash) -> Result<(usize, usize), SmtError<R::Error>> {
        self.reader.load(hash)
    }

    /// New hash of the subtree at `depth` whose current hash is `hash`, after keys [lo, hi).
    /// `entry` is the node's plan entry (UNPLANNED if the prefetch has none: it is then read by
    /// hash, which fails as the TypeScript tree does if the store lacks it).
    fn update_node(
        &mut self,
        hash: Hash,
        depth: usize,
        lo: usize,
        hi: usize,
        entry: u32,
    ) -> Result<Step, SmtError<R::Error>> {
        if lo == hi {
            return Ok(Step::unchanged(hash, if is_empty(&hash) { Kind::Empty } else { Kind::Unknown }));
        }
        if is_empty(&hash) {
            let built = self.build_new(depth, lo, hi);
            // Still empty (only deletes): the node given is handed back, so the parent sees no change.
            return Ok(if built.kind == Kind::Empty { Step::unchanged(hash, Kind::Empty) } else { built });
        }
        if depth > self.key_length * 8 {
            return Err(SmtError::TooDeep);
        }
        // Each level of the plan is read front to back, one entry per visit, the levels in
        // turn: the entries the next visits of this level will read are requested now, so that
        // they are in the cache when the recursion comes back to this level.
        let ahead = self.plan.as_ptr().wrapping_add(entry as usize + 1) as *const u8;
        prefetch(ahead);
        prefetch(ahead.wrapping_add(std::mem::size_of::<Planned>() * 2 - 1));
        let planned = self.plan.get(entry as usize).copied();
        let node = match planned.map(|planned| planned.node) {
            Some(PlannedNode::Missing) | None => {
                let position = self.load(&hash)?;
                plan_node(self.reader.map(), position, self.key_length, &mut self.leaves)
            }
            Some(node) => node,
        };
        let children = planned.map_or([UNPLANNED; 2], |planned| planned.children);
        let [left, right] = match node {
            PlannedNode::Leaf(position) => return self.update_leaf(hash, position, depth, lo, hi),
            PlannedNode::Branch(children) => children,
            PlannedNode::Malformed | PlannedNode::Missing => return Err(SmtError::Malformed(hash)),
        };
        let split = self.batch.split_index(lo, hi, depth);
        let new_left = self.update_node(left, depth + 1, lo, split, children[0])?;
        let new_right = self.update_node(right, depth + 1, split, hi, children[1])?;
        if new_left.same && new_right.same {
            return Ok(Step::unchanged(hash, Kind::Branch));
        }
        self.out.removed.extend_from_slice(&hash);
        let combined = self.combine(new_left, new_right)?;
        // Whatever combine returns, it is not this branch any more.
        Ok(Step { same: false, ..combined })
    }

    /// New hash of the subtree at `depth` that holds the single leaf `hash` (its bytes at
    /// `position` in `leaves`): the leaf is pushed down beside the batch keys until they part; where its own
    /// key is in the batch, it is replaced or deleted. A `same` result is the leaf itself.
    fn update_leaf(
        &mut self,
        hash: Hash,
        position: (usize, usize),
        depth: usize,
        lo: usize,
        hi: usize,
    ) -> Result<Step, SmtError<R::Error>> {
        let key_length = self.key_length;
        // What the batch does to the leaf is decided before anything is written: the leaf's bytes
        // live in the node map, borrowed only inside this block.
        let (outcome, goes_left) = {
            let leaf = &self.leaves[position.0..position.0 + position.1];
            let (leaf_key, leaf_value) = (&leaf[1..1 + key_length], &leaf[1 + key_length..]);
            let outcome = if hi - lo == 1 {
                let value = self.batch.value(lo);
                if self.batch.key(lo) == leaf_key {
                    if value.is_empty() {
                        LeafOutcome::Deleted
                    } else if value == leaf_value {
                        LeafOutcome::Unchanged
                    } else {
                        LeafOutcome::Replaced
                    }
                } else if value.is_empty() {
                    LeafOutcome::Unchanged
                } else {
                    LeafOutcome::PushedDown
                }
            } else if self.batch.count_inserts(lo, hi) == 0 && !self.batch.contains_key(leaf_key, lo, hi) {
                // Only deletions of keys that are not here.
                LeafOutcome::Unchanged
            } else {
                LeafOutcome::PushedDown
            };
            (outcome, key_bit(leaf_key, depth) == 0)
        };
        match outcome {
            LeafOutcome::Unchanged => return Ok(Step::unchanged(hash, Kind::Leaf)),
            LeafOutcome::Deleted => {
                self.out.removed.extend_from_slice(&hash);
                return Ok(Step::empty());
            }
            LeafOutcome::Replaced => {
                self.out.removed.extend_from_slice(&hash);
                return Ok(self.new_leaf(lo));
            }
            LeafOutcome::PushedDown => {}
        }
        if depth >= key_length * 8 {
            return Err(SmtError::TooDeep);
        }

        let split = self.batch.split_index(lo, hi, depth);
        let (left, right) = if goes_left {
            let left = if lo == split {
                Step::unchanged(hash, Kind::Leaf)
            } else {
                self.update_leaf(hash, position, depth + 1, lo, split)?
            };
            (left, self.build_new(depth + 1, split, hi))
        } else {
            let left = self.build_new(depth + 1, lo, split);
            let right = if split == hi {
                Step::unchanged(hash, Kind::Leaf)
            } else {
                self.update_leaf(hash, position, depth + 1, split, hi)?
            };
            (left, right)
        };
        // A `same` child is this very leaf, so combine's choice keeps its flag.
        self.combine(left, right)
    }

    /// Hash of a new subtree at `depth` holding the inserts among keys [lo, hi) (deletes ignored).
    fn build_new(&mut self, depth: usize, lo: usize, hi: usize) -> Step {
        let inserts = self.batch.count_inserts(lo, hi);
        if inserts == 0 {
            return Step::empty();
        }
        if inserts == 1 {
            let mut at = lo;
            while self.batch.value(at).is_empty() {
                at += 1;
            }
            return self.new_leaf(at);
        }
        let split = self.batch.split_index(lo, hi, depth);
        let left = self.build_new(depth + 1, lo, split);
        let right = self.build_new(depth + 1, split, hi);
        // Kinds from build_new are never Unknown, so combine cannot need the store here.
        self.combine_known(left, right)
    }

    /// The node with children `left` and `right` in canonical form: Branch(Empty, Empty) is
    /// Empty, and a Branch of Empty and a Leaf is that Leaf (moved up, hash unchanged).
    fn combine(&mut self, left: Step, right: Step) -> Result<Step, SmtError<R::Error>> {
        if left.kind == Kind::Empty {
            if right.kind == Kind::Empty {
                return Ok(Step::empty());
            }
            if self.resolve_kind(&right)? == Kind::Leaf {
                return Ok(Step { kind: Kind::Leaf, ..right });
            }
        } else if right.kind == Kind::Empty && self.resolve_kind(&left)? == Kind::Leaf {
            return Ok(Step { kind: Kind::Leaf, ..left });
        }
        Ok(self.new_branch(&left, &right))
    }

    fn combine_known(&mut self, left: Step, right: Step) -> Step {
        if left.kind == Kind::Empty {
            if right.kind == Kind::Empty {
                return Step::empty();
            }
            if right.kind == Kind::Leaf {
                return right;
            }
        } else if right.kind == Kind::Empty && left.kind == Kind::Leaf {
            return left;
        }
        self.new_branch(&left, &right)
    }

    /// Kind of a node; an untouched node is read only when a collapse needs it.
    fn resolve_kind(&mut self, step: &Step) -> Result<Kind, SmtError<R::Error>> {
        if step.kind != Kind::Unknown {
            return Ok(step.kind);
        }
        let position = self.load(&step.hash)?;
        // As load-node.ts reads it: anything but a leaf tag (even no byte at all) is a branch.
        Ok(if self.reader.map().is_leaf(position) { Kind::Leaf } else { Kind::Branch })
    }

    /// A new branch over `left` and `right` (its hash comes later, see `Deferred`).
    fn new_branch(&mut self, left: &Step, right: &Step) -> Step {
        let write = self.out.write_ends.len() as u32;
        let data = self.out.write_data.len();
        let mut height = 0;
        let mut children = [left.hash, right.hash];
        for (side, child) in [left, right].into_iter().enumerate() {
            let pending = child.write as usize;
            if child.write == NO_WRITE {
                continue;
            }
            if pending < self.deferred.hashed {
                children[side] = self.written_hash(child.write);
            } else {
                self.deferred.patches[pending] = (data + 1 + 32 * side) as u32;
                height = height.max(self.deferred.heights[pending] + 1);
            }
        }
        encode_branch(&mut self.out.write_data, &children[0], &children[1]);
        self.written(height);
        Step::written(write, Kind::Branch)
    }

    /// A new leaf for batch entry `at`.
    fn new_leaf(&mut self, at: usize) -> Step {
        let write = self.out.write_ends.len() as u32;
        encode_leaf(&mut self.out.write_data, self.batch.key(at), self.batch.value(at));
        self.written(0);
        Step::written(write, Kind::Leaf)
    }

    /// Ends the write just encoded (its hash to come).
    fn written(&mut self, height: u16) {
        self.out.write_ends.push(self.out.write_data.len() as u32);
        self.out.write_hashes.extend_from_slice(&[0; 32]);
        self.deferred.heights.push(height);
        self.deferred.patches.push(u32::MAX);
        if self.out.write_ends.len() - self.deferred.hashed >= HASH_RUN {
            self.hash_pending();
        }
    }

    fn written_hash(&self, write: u32) -> Hash {
        let at = write as usize * 32;
        self.out.write_hashes[at..at + 32].try_into().expect("32 bytes")
    }

    /// Hashes the pending writes, lowest first, two at a time where their messages are the same
    /// number of blocks, filling `write_hashes` and patching each hash into its parent's data.
    fn hash_pending(&mut self) {
        let (first_pending, writes) = (self.deferred.hashed, self.out.write_ends.len());
        if first_pending == writes {
            return;
        }
        // The pending writes by height (a counting sort).
        let Deferred { heights, patches, counts, order, .. } = &mut self.deferred;
        let pending_heights = &heights[first_pending..writes];
        let levels = pending_heights.iter().copied().max().map_or(0, |highest| highest as usize + 1);
        counts.clear();
        counts.resize(levels + 1, 0);
        for &height in pending_heights {
            counts[height as usize + 1] += 1;
        }
        for level in 1..=levels {
            counts[level] += counts[level - 1];
        }
        order.clear();
        order.resize(pending_heights.len(), 0);
        for (write, &height) in (first_pending..writes).zip(pending_heights) {
            order[counts[height as usize] as usize] = write as u32;
            counts[height as usize] += 1;
        }
        // counts[h] is now the end of height h in `order`.
        let mut start = 0;
        let mut first_message = [0u8; 256];
        let mut second_message = [0u8; 256];
        for &end in counts.iter().take(levels) {
            let mut at = start;
            while at + 1 < end as usize {
                let (first, second) = (order[at] as usize, order[at + 1] as usize);
                let first_length = self.out.message(first, &mut first_message);
                let second_length = self.out.message(second, &mut second_message);
                let (first_hash, second_hash) = match (first_length, second_length) {
                    (Some(first_length), Some(second_length)) => sha256::digest_padded_pair_in_place(
                        &mut first_message,
                        first_length,
                        &mut second_message,
                        second_length,
                    ),
                    _ => (self.out.node_hash(first), self.out.node_hash(second)),
                };
                self.out.set_hash(first, &first_hash, patches[first]);
                self.out.set_hash(second, &second_hash, patches[second]);
                at += 2;
            }
            if at < end as usize {
                let write = order[at] as usize;
                let hash = self.out.node_hash(write);
                self.out.set_hash(write, &hash, patches[write]);
            }
            start = end as usize;
        }
        self.deferred.hashed = writes;
    }
}

impl UpdateOutput {
    fn data(&self, write: usize) -> &[u8] {
        let start = if write == 0 { 0 } else { self.write_ends[write - 1] as usize };
        &self.write_data[start..self.write_ends[write] as usize]
    }

    /// The hashed message of write `write` (node prefix, then the node's data after its tag)
    /// copied into `buffer`, zeros up to its padded length, and its length; None if it does
    /// not fit with its padding.
    #[inline]
    fn message(&self, write: usize, buffer: &mut [u8; 256]) -> Option<usize> {
        let data = self.data(write);
        let length = NODE_PREFIX_LENGTH + data.len() - 1;
        let padded = (length + 9).next_multiple_of(64);
        if padded > buffer.len() {
            return None;
        }
        buffer[..NODE_PREFIX_LENGTH].copy_from_slice(node_prefix(data[0]));
        buffer[NODE_PREFIX_LENGTH..length].copy_from_slice(&data[1..]);
        buffer[length..padded].fill(0);
        Some(length)
    }

    /// Hash of write `write` alone.
    fn node_hash(&self, write: usize) -> Hash {
        let data = self.data(write);
        if data[0] == LEAF_TAG {
            leaf_hash(&data[1..], &[])
        } else {
            branch_hash(data[1..33].try_into().expect("32 bytes"), data[33..65].try_into().expect("32 bytes"))
        }
    }

    fn set_hash(&mut self, write: usize, hash: &Hash, patch: u32) {
        self.write_hashes[write * 32..write * 32 + 32].copy_from_slice(hash);
        if patch != u32::MAX {
            self.write_data[patch as usize..patch as usize + 32].copy_from_slice(hash);
        }
    }
}
