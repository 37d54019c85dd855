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
use super::node_map::{NodeMap, NodeSource, Position};
use super::Hash;

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

/// A node the update will read, as the prefetch found it: where its bytes are, and the plan
/// entries of the children the update will descend into. Following the plan, the update's
/// recursion reaches each node without a hash lookup.
#[derive(Clone, Copy)]
pub struct Planned {
    /// None when the source lacks the node (the update reports it when it gets there).
    pub position: Option<Position>,
    pub children: [u32; 2],
}

/// Every node the batch update below `root` loads: the nodes on the keys' paths, down to a leaf
/// or to the last node whose subtree holds a batch key. Returns the plan (entry 0 is the root),
/// empty when the update reads no node.
pub fn prefetch_update<S: NodeSource>(
    source: &mut S,
    nodes: &mut NodeMap,
    batch: &SortedBatch,
    root: &Hash,
) -> Result<Vec<Planned>, S::Error> {
    let key_length = batch.key_length();
    let max_depth = key_length * 8;
    let mut plan: Vec<Planned> = Vec::with_capacity(batch.len() * 10);
    // (hash, depth, lo, hi, plan entry): a node at `depth` whose subtree keys [lo, hi) go to.
    let mut level: Vec<(Hash, usize, usize, usize, u32)> = Vec::new();
    if !is_empty(root) && !batch.is_empty() {
        level.push((*root, 0, 0, batch.len(), 0));
        plan.push(Planned { position: None, children: [UNPLANNED; 2] });
    }
    let mut wanted = Vec::new();
    let mut next = Vec::new();
    while !level.is_empty() {
        // The nodes of one level are distinct subtrees of one tree, so their hashes are
        // distinct and none was read before: no need to sort, dedupe or check the map.
        wanted.clear();
        wanted.extend(level.iter().map(|item| item.0));
        source.fetch(&wanted, nodes)?;
        next.clear();
        for &(hash, depth, lo, hi, entry) in &level {
            let Some(position) = nodes.position(&hash) else { continue };
            plan[entry as usize].position = Some(position);
            let Some(Node::Branch { left, right }) = decode(nodes.bytes(position), key_length) else { continue };
            if depth >= max_depth {
                continue;
            }
            let split = batch.split_index(lo, hi, depth);
            for (side, child, child_lo, child_hi) in [(0, left, lo, split), (1, right, split, hi)] {
                if child_lo < child_hi && !is_empty(&child) {
                    let child_entry = plan.len() as u32;
                    plan.push(Planned { position: None, children: [UNPLANNED; 2] });
                    plan[entry as usize].children[side] = child_entry;
                    next.push((child, depth + 1, child_lo, child_hi, child_entry));
                }
            }
        }
        std::mem::swap(&mut level, &mut next);
    }
    Ok(plan)
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
