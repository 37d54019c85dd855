//! Reads, one tree level per call to the node source, every node an operation is going to need.
//!
//! Calling into JavaScript costs far more than hashing a node, so the update and the proof do
//! not ask for nodes one at a time while they recurse. First the paths are walked breadth-first:
//! all the nodes of one level that are not in the node map yet are asked for in one call, and
//! their children on the paths of the batch's keys make up the next level. The update or the
//! proof then runs entirely on the map. Which nodes are read is exactly what the recursion reads
//! (plus nothing), so a missing node is still reported by the recursion, at the point where the
//! TypeScript tree would report it.
//!
//! For the update, the prefetch also records a plan of what it found (see `Planned`), so that
//! the recursion finds each node by following its parent's entry instead of by hash.

use super::batch::SortedBatch;
use super::codec::{decode, Node};
use super::hash::is_empty;
use super::keys::key_bit;
use super::node_map::{load, NodeMap, NodeSource, Position};
use super::{Hash, SmtError};
use std::marker::PhantomData;

/// Fetches the nodes of `wanted` that are not in the map yet (each once).
fn fetch_missing<S: NodeSource>(source: &mut S, nodes: &mut NodeMap, wanted: &mut Vec<Hash>) -> Result<(), S::Error> {
    wanted.retain(|hash| !nodes.contains(hash));
    wanted.sort_unstable();
    wanted.dedup();
    if wanted.is_empty() {
        return Ok(());
    }
    source.fetch(wanted, nodes)
}

/// No plan entry (a child that is not read, or a node the source lacks).
pub const UNPLANNED: u32 = u32::MAX;

/// How an update reads nodes: from its own map, filled through a source (`Fetching`), or in
/// place from a source that is a map itself (`InPlace`, the native store). Positions refer to
/// `map()`.
pub trait Reader {
    type Error;
    /// The map every position handed out refers to.
    fn map(&self) -> &NodeMap;
    /// Calls `found(i, position, bytes)` for each node of `hashes` there is, in order, fetching
    /// them first if needed (absent nodes are skipped).
    fn find_level(&mut self, hashes: &[Hash], found: impl FnMut(usize, Position, &[u8])) -> Result<(), Self::Error>;
    /// Position of one node, fetching it first if needed.
    fn load(&mut self, hash: &Hash) -> Result<Position, SmtError<Self::Error>>;
}

/// Reads through the operation's own map, asking `source` for what it lacks.
pub struct Fetching<'a, S: NodeSource> {
    pub source: &'a mut S,
    pub nodes: &'a mut NodeMap,
}

impl<S: NodeSource> Reader for Fetching<'_, S> {
    type Error = S::Error;

    fn map(&self) -> &NodeMap {
        self.nodes
    }

    fn find_level(&mut self, hashes: &[Hash], mut found: impl FnMut(usize, Position, &[u8])) -> Result<(), S::Error> {
        self.source.fetch(hashes, self.nodes)?;
        for (index, hash) in hashes.iter().enumerate() {
            if let Some(position) = self.nodes.position(hash) {
                found(index, position, self.nodes.bytes(position));
            }
        }
        Ok(())
    }

    fn load(&mut self, hash: &Hash) -> Result<Position, SmtError<S::Error>> {
        load(self.source, self.nodes, hash)
    }
}

/// Reads a map that holds every node there is (a missing node is missing for good). `E` is the
/// error type of the source the map stands for; nothing here produces one.
pub struct InPlace<'a, E> {
    map: &'a NodeMap,
    error: PhantomData<E>,
}

impl<'a, E> InPlace<'a, E> {
    pub fn new(map: &'a NodeMap) -> Self {
        InPlace { map, error: PhantomData }
    }
}

impl<E> Reader for InPlace<'_, E> {
    type Error = E;

    fn map(&self) -> &NodeMap {
        self.map
    }

    fn find_level(&mut self, hashes: &[Hash], found: impl FnMut(usize, Position, &[u8])) -> Result<(), E> {
        self.map.find_each(hashes, found);
        Ok(())
    }

    fn load(&mut self, hash: &Hash) -> Result<Position, SmtError<E>> {
        self.map.position(hash).ok_or(SmtError::Missing(*hash))
    }
}

/// A node as the prefetch found it.
#[derive(Clone, Copy)]
pub enum PlannedNode {
    /// The source lacks it (the update reports it when it gets there).
    Missing,
    /// Its bytes are no valid node.
    Malformed,
    /// A leaf, whose bytes the prefetch copied to this position of the plan's leaf bytes (the
    /// update compares the batch's keys with it: a copy made while the node is in the cache,
    /// next to the other leaves of its level, instead of a second cache miss on the node).
    Leaf(Position),
    /// A branch and its children's hashes, decoded once here: the update then reads the plan
    /// alone, in the order it was written level by level, instead of the node in the map.
    Branch([Hash; 2]),
}

/// A node the update will read, and the plan entries of the children the update will descend
/// into. Following the plan, the update's recursion reaches each node without a hash lookup.
#[derive(Clone, Copy)]
pub struct Planned {
    pub node: PlannedNode,
    pub children: [u32; 2],
}

/// Every node the batch update below `root` loads: the nodes on the keys' paths, down to a leaf
/// or to the last node whose subtree holds a batch key. Fills `plan` (entry 0 is the root; empty
/// when the update reads no node).
pub fn prefetch_update<R: Reader>(
    reader: &mut R,
    batch: &SortedBatch,
    root: &Hash,
    plan: &mut Vec<Planned>,
    leaves: &mut Vec<u8>,
) -> Result<(), R::Error> {
    let key_length = batch.key_length();
    let max_depth = key_length * 8;
    plan.clear();
    leaves.clear();
    let unread = Planned { node: PlannedNode::Missing, children: [UNPLANNED; 2] };
    // (hash, depth, lo, hi, plan entry): a node at `depth` whose subtree keys [lo, hi) go to.
    let mut level: Vec<(Hash, usize, usize, usize, u32)> = Vec::new();
    if !is_empty(root) && !batch.is_empty() {
        level.push((*root, 0, 0, batch.len(), 0));
        plan.push(unread);
    }
    let mut wanted = Vec::new();
    let mut next = Vec::new();
    while !level.is_empty() {
        // The nodes of one level are distinct subtrees of one tree, so their hashes are
        // distinct and none was read before: no need to sort, dedupe or check the map.
        wanted.clear();
        wanted.extend(level.iter().map(|item| item.0));
        next.clear();
        reader.find_level(&wanted, |index, _, bytes| {
            let (_, depth, lo, hi, entry) = level[index];
            let node = match decode(bytes, key_length) {
                None => PlannedNode::Malformed,
                Some(Node::Leaf { .. }) => {
                    leaves.extend_from_slice(bytes);
                    PlannedNode::Leaf((leaves.len() - bytes.len(), bytes.len()))
                }
                Some(Node::Branch { left, right }) => PlannedNode::Branch([left, right]),
            };
            plan[entry as usize].node = node;
            let PlannedNode::Branch([left, right]) = node else { return };
            if depth >= max_depth {
                return;
            }
            let split = batch.split_index(lo, hi, depth);
            for (side, child, child_lo, child_hi) in [(0, left, lo, split), (1, right, split, hi)] {
                if child_lo < child_hi && !is_empty(&child) {
                    let child_entry = plan.len() as u32;
                    plan.push(unread);
                    plan[entry as usize].children[side] = child_entry;
                    next.push((child, depth + 1, child_lo, child_hi, child_entry));
                }
            }
        })?;
        std::mem::swap(&mut level, &mut next);
    }
    Ok(())
}

/// Every node on the paths of `query_keys` (each `key_length` bytes, back to back) below `root`.
pub fn prefetch_paths<S: NodeSource>(
    source: &mut S,
    nodes: &mut NodeMap,
    key_length: usize,
    root: &Hash,
    query_keys: &[u8],
) -> Result<(), S::Error> {
    let max_depth = key_length * 8;
    // (hash, depth, query index)
    let mut level: Vec<(Hash, usize, usize)> = Vec::new();
    if !is_empty(root) {
        level.extend((0..query_keys.len() / key_length.max(1)).map(|query| (*root, 0, query)));
    }
    let mut wanted = Vec::new();
    let mut next = Vec::new();
    while !level.is_empty() {
        wanted.clear();
        wanted.extend(level.iter().map(|item| item.0));
        fetch_missing(source, nodes, &mut wanted)?;
        next.clear();
        for &(hash, depth, query) in &level {
            let Some(data) = nodes.get(&hash) else { continue };
            let Some(Node::Branch { left, right }) = decode(data, key_length) else { continue };
            if depth >= max_depth {
                continue;
            }
            let key = &query_keys[query * key_length..(query + 1) * key_length];
            let child = if key_bit(key, depth) == 1 { right } else { left };
            if !is_empty(&child) {
                next.push((child, depth + 1, query));
            }
        }
        std::mem::swap(&mut level, &mut next);
    }
    Ok(())
}
