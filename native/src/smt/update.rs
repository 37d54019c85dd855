//! One batch update of a sparse Merkle tree (LIP 0039 "Root Hash Calculation" and "Removing a
//! Leaf Node" in one pass; protocol.md §6.2.3). A line-by-line port of batch-update.ts: the same
//! recursion in the same order, so the write set lists the same nodes in the same order. See that
//! file for the algorithm; the comments here are about what differs in Rust.
//!
//! batch-update.ts learns that a subtree did not change by getting back the very Buffer object it
//! passed down. Here every step returns a `Step` whose `same` flag carries that fact: true when
//! the returned hash is the node the step was given, untouched.

use super::batch::SortedBatch;
use super::codec::{decode, encode_branch, encode_leaf, Node, LEAF_TAG};
use super::hash::{branch_hash, is_empty, leaf_hash, EMPTY_HASH};
use super::keys::key_bit;
use super::node_map::{prefetch, NodeMap, NodeSource};
use super::prefetch::{prefetch_update, Fetching, InPlace, Planned, PlannedNode, Reader, UNPLANNED};
use super::{Hash, SmtError};
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

#[derive(Clone, Copy)]
struct Step {
    hash: Hash,
    kind: Kind,
    /// The result is the node the step was given (nothing below it changed).
    same: bool,
}

impl Step {
    fn unchanged(hash: Hash, kind: Kind) -> Step {
        Step { hash, kind, same: true }
    }

    fn new(hash: Hash, kind: Kind) -> Step {
        Step { hash, kind, same: false }
    }

    fn empty() -> Step {
        Step::new(EMPTY_HASH, Kind::Empty)
    }
}

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
    key_length: usize,
    out: UpdateOutput,
}

pub static EXPERIMENT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

thread_local! {
    /// The plan of the thread's last update, kept for the next one (its memory, megabytes for a
    /// large batch, is then already mapped and warm).
    static PLAN: RefCell<Vec<Planned>> = const { RefCell::new(Vec::new()) };
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
    let mut plan = PLAN.with(|plan| std::mem::take(&mut *plan.borrow_mut()));
    plan.reserve(batch.len() * 10);
    prefetch_update(&mut reader, batch, root, &mut plan).map_err(SmtError::Source)?;
    let root_entry = if plan.is_empty() { UNPLANNED } else { 0 };
    // Rough sizes: about ten branches rewritten per key in large trees.
    let expected_writes = batch.len() * 10;
    let mut run = Update {
        reader,
        batch,
        plan,
        key_length: batch.key_length(),
        out: UpdateOutput {
            root: *root,
            root_changed: false,
            write_hashes: Vec::with_capacity(expected_writes * 32),
            write_data: Vec::with_capacity(expected_writes * 65),
            write_ends: Vec::with_capacity(expected_writes),
            removed: Vec::with_capacity(expected_writes * 32),
        },
    };
    let step = run.update_node(*root, 0, 0, batch.len(), root_entry);
    let plan = std::mem::take(&mut run.plan);
    PLAN.with(|kept| *kept.borrow_mut() = plan);
    let step = step?;
    run.out.root = step.hash;
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
                match decode(self.reader.map().bytes(position), self.key_length) {
                    Some(Node::Leaf { .. }) => PlannedNode::Leaf(position),
                    Some(Node::Branch { left, right }) => PlannedNode::Branch([left, right]),
                    None => PlannedNode::Malformed,
                }
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

    /// New hash of the subtree at `depth` that holds the single leaf `hash` (stored at
    /// `position`): the leaf is pushed down beside the batch keys until they part; where its own
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
            let leaf = self.reader.map().bytes(position);
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
        Ok(self.new_branch(&left.hash, &right.hash))
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
        self.new_branch(&left.hash, &right.hash)
    }

    /// Kind of a node; an untouched node is read only when a collapse needs it.
    fn resolve_kind(&mut self, step: &Step) -> Result<Kind, SmtError<R::Error>> {
        if step.kind != Kind::Unknown {
            return Ok(step.kind);
        }
        let position = self.load(&step.hash)?;
        // As load-node.ts reads it: anything but a leaf tag (even no byte at all) is a branch.
        Ok(if self.reader.map().bytes(position).first() == Some(&LEAF_TAG) { Kind::Leaf } else { Kind::Branch })
    }

    fn new_branch(&mut self, left: &Hash, right: &Hash) -> Step {
        let hash = branch_hash(left, right);
        self.out.write_hashes.extend_from_slice(&hash);
        encode_branch(&mut self.out.write_data, left, right);
        self.out.write_ends.push(self.out.write_data.len() as u32);
        Step::new(hash, Kind::Branch)
    }

    /// A new leaf for batch entry `at`.
    fn new_leaf(&mut self, at: usize) -> Step {
        let (key, value) = (self.batch.key(at), self.batch.value(at));
        let hash = leaf_hash(key, value);
        self.out.write_hashes.extend_from_slice(&hash);
        encode_leaf(&mut self.out.write_data, key, value);
        self.out.write_ends.push(self.out.write_data.len() as u32);
        Step::new(hash, Kind::Leaf)
    }
}
