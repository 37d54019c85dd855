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
use super::codec::Node;
use super::hash::{is_empty, EMPTY_HASH};
use super::keys::key_bit;
use super::node_map::{load, NodeMap, NodeSource, Position, NO_LINK};
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
    /// Calls `found(i, map, hash, position)` for each item of `items` in order, fetching the
    /// nodes first if needed: a node given by its hash, or by a link of the map (see
    /// `NodeMap::find_each`); the position is None for a node there is not.
    fn find_level(
        &mut self,
        items: &[(Hash, u32)],
        found: impl FnMut(usize, &NodeMap, &Hash, Option<Position>),
    ) -> Result<(), Self::Error>;
    /// Calls `found(i, hash)` with the hash each of `links` points to.
    fn linked_hashes(&self, links: &[u32], found: impl FnMut(usize, Hash)) {
        self.map().linked_hashes(links, found);
    }
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

    /// The map is the operation's own, filled from the source: it holds no linked branch, so
    /// every item is given by its hash.
    fn find_level(
        &mut self,
        items: &[(Hash, u32)],
        mut found: impl FnMut(usize, &NodeMap, &Hash, Option<Position>),
    ) -> Result<(), S::Error> {
        let hashes: Vec<Hash> = items.iter().map(|(hash, _)| *hash).collect();
        self.source.fetch(&hashes, self.nodes)?;
        for (index, hash) in hashes.iter().enumerate() {
            found(index, self.nodes, hash, self.nodes.position(hash));
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

    fn find_level(
        &mut self,
        items: &[(Hash, u32)],
        mut found: impl FnMut(usize, &NodeMap, &Hash, Option<Position>),
    ) -> Result<(), E> {
        let map = self.map;
        map.find_each(items, |index, hash, position| found(index, map, hash, position));
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

/// What the update needs of the node at `position` of `map` (not a linked branch): a leaf's data,
/// as it was stored, is appended to `leaves`; a branch is decoded. As codec.rs `decode` reads
/// nodes, a leaf shorter than its key or a branch shorter than two hashes is malformed.
pub fn plan_node(map: &NodeMap, position: Position, key_length: usize, leaves: &mut Vec<u8>) -> PlannedNode {
    if map.is_leaf(position) {
        let start = leaves.len();
        map.copy_data(position, leaves);
        if leaves.len() - start < 1 + key_length {
            leaves.truncate(start);
            return PlannedNode::Malformed;
        }
        return PlannedNode::Leaf((start, leaves.len() - start));
    }
    match map.node(position, key_length) {
        Some(Node::Branch { left, right }) => PlannedNode::Branch([left, right]),
        _ => PlannedNode::Malformed,
    }
}

/// A node the prefetch of an update reads: at `depth`, the batch keys [lo, hi) go below it; its
/// plan entry; and, when it was reached through a link of its parent, which child of which plan
/// entry it is (`entry * 2 + side`, NO_PARENT otherwise), for its hash to be noted there.
#[derive(Clone, Copy)]
struct Visit {
    depth: usize,
    lo: usize,
    hi: usize,
    entry: u32,
    parent: u32,
}

const NO_PARENT: u32 = u32::MAX;

/// Notes the hash of child `parent % 2` of plan entry `parent / 2`.
fn set_child_hash(plan: &mut [Planned], parent: u32, hash: Hash) {
    if let PlannedNode::Branch(children) = &mut plan[(parent / 2) as usize].node {
        children[(parent % 2) as usize] = hash;
    }
}

/// Every node the batch update below `root` loads: the nodes on the keys' paths, down to a leaf
/// or to the last node whose subtree holds a batch key. Fills `plan` (entry 0 is the root; empty
/// when the update reads no node).
///
/// Below a linked branch (native store) the children are read through their links: their hashes
/// come with their records, and those of the children the update does not descend into are read
/// after each level, all together.
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
    let mut level: Vec<Visit> = Vec::new();
    // The nodes of `level`: (hash, NO_LINK), or (not known yet, link).
    let mut wanted: Vec<(Hash, u32)> = Vec::new();
    if !is_empty(root) && !batch.is_empty() {
        level.push(Visit { depth: 0, lo: 0, hi: batch.len(), entry: 0, parent: NO_PARENT });
        wanted.push((*root, NO_LINK));
        plan.push(unread);
    }
    let (mut next, mut next_wanted) = (Vec::new(), Vec::new());
    let (mut sibling_links, mut sibling_parents) = (Vec::new(), Vec::new());
    while !level.is_empty() {
        // The nodes of one level are distinct subtrees of one tree, so their hashes are
        // distinct and none was read before: no need to sort, dedupe or check the map.
        next.clear();
        next_wanted.clear();
        sibling_links.clear();
        sibling_parents.clear();
        reader.find_level(&wanted, |index, map, hash, position| {
            let Visit { depth, lo, hi, entry, parent } = level[index];
            if parent != NO_PARENT {
                set_child_hash(plan, parent, *hash);
            }
            let Some(position) = position else { return };
            let descend = depth < max_depth;
            if let Some(links) = map.child_links(position) {
                let split = if descend { batch.split_index(lo, hi, depth) } else { lo };
                // Empty children keep the empty hash; the others are noted as they are read.
                plan[entry as usize].node = PlannedNode::Branch([EMPTY_HASH; 2]);
                for (side, link, child_lo, child_hi) in [(0, links[0], lo, split), (1, links[1], split, hi)] {
                    if link == NO_LINK {
                        continue;
                    }
                    let parent = entry * 2 + side;
                    if descend && child_lo < child_hi {
                        let child_entry = plan.len() as u32;
                        plan.push(unread);
                        plan[entry as usize].children[side as usize] = child_entry;
                        next.push(Visit { depth: depth + 1, lo: child_lo, hi: child_hi, entry: child_entry, parent });
                        next_wanted.push(([0; 32], link));
                    } else {
                        sibling_links.push(link);
                        sibling_parents.push(parent);
                    }
                }
                return;
            }
            let node = plan_node(map, position, key_length, leaves);
            plan[entry as usize].node = node;
            let PlannedNode::Branch([left, right]) = node else { return };
            if !descend {
                return;
            }
            let split = batch.split_index(lo, hi, depth);
            for (side, child, child_lo, child_hi) in [(0, left, lo, split), (1, right, split, hi)] {
                if child_lo < child_hi && !is_empty(&child) {
                    let child_entry = plan.len() as u32;
                    plan.push(unread);
                    plan[entry as usize].children[side] = child_entry;
                    next.push(Visit {
                        depth: depth + 1,
                        lo: child_lo,
                        hi: child_hi,
                        entry: child_entry,
                        parent: NO_PARENT,
                    });
                    next_wanted.push((child, NO_LINK));
                }
            }
        })?;
        reader.linked_hashes(&sibling_links, |index, hash| set_child_hash(plan, sibling_parents[index], hash));
        std::mem::swap(&mut level, &mut next);
        std::mem::swap(&mut wanted, &mut next_wanted);
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
            let Some(position) = nodes.position(&hash) else { continue };
            let Some(Node::Branch { left, right }) = nodes.node(position, key_length) else { continue };
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
