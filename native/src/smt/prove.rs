//! SMT multiproofs (LIP 0039 "Proof Construction" as lisk-db builds them), a
//! port of prove.ts and the queue handling of path-query.ts: the same queries, the same sibling
//! hashes in the same order.

use super::codec::Node;
use super::hash::is_empty;
use super::keys::{bitmap_bit, common_prefix_bits, encode_bitmap, key_bit};
use super::node_map::{load, NodeMap, NodeSource};
use super::prefetch::prefetch_paths;
use super::{Hash, SmtError};
use std::collections::{HashSet, VecDeque};

/// One query of the proof: the queried key with its value (inclusion), the key with an empty
/// value (the path ends in an empty node), or the key and value of the leaf the path ends in.
pub struct ProofQuery {
    pub key: Vec<u8>,
    pub value: Vec<u8>,
    pub bitmap: Vec<u8>,
}

pub struct ProofOutput {
    pub sibling_hashes: Vec<Hash>,
    pub queries: Vec<ProofQuery>,
}

/// A query climbing from the end of its path towards the root.
struct Climber {
    /// Index of its query in the output (key and bitmap are read there).
    query: usize,
    height: usize,
    /// Non-empty siblings still to be met, root first.
    siblings: Vec<Hash>,
}

/// Multiproof for `query_keys` (`key_length` bytes each, back to back) under `root`; queries keep
/// the order of the keys.
pub fn prove<S: NodeSource>(
    source: &mut S,
    nodes: &mut NodeMap,
    key_length: usize,
    root: &Hash,
    query_keys: &[u8],
) -> Result<ProofOutput, SmtError<S::Error>> {
    let count = query_keys.len().checked_div(key_length).unwrap_or(0);
    let mut output = ProofOutput { sibling_hashes: Vec::new(), queries: Vec::with_capacity(count) };
    if count == 0 {
        return Ok(output);
    }
    prefetch_paths(source, nodes, key_length, root, query_keys).map_err(SmtError::Source)?;

    let mut path_nodes: HashSet<Hash> = HashSet::new();
    let mut climbers: Vec<Climber> = Vec::with_capacity(count);
    for (index, query_key) in query_keys.chunks_exact(key_length).enumerate() {
        let (query, siblings) = walk_path(source, nodes, key_length, root, query_key, &mut path_nodes)?;
        let height = query.height;
        output.queries.push(query.proof);
        climbers.push(Climber { query: index, height, siblings });
    }

    let queries = &output.queries;
    // Deepest first, then by key; stable, like Array.prototype.sort.
    climbers.sort_by(|a, b| b.height.cmp(&a.height).then_with(|| queries[a.query].key.cmp(&queries[b.query].key)));
    let mut queue: VecDeque<Climber> = climbers.into();
    let mut emitted: HashSet<Hash> = HashSet::new();
    let mut sibling_hashes = Vec::new();
    while let Some(mut climber) = queue.pop_front() {
        if climber.height == 0 {
            continue;
        }
        if bitmap_bit(&queries[climber.query].bitmap, climber.height - 1) {
            let sibling = climber.siblings.pop().ok_or(SmtError::TooDeep)?;
            if !path_nodes.contains(&sibling) && emitted.insert(sibling) {
                sibling_hashes.push(sibling);
            }
        }
        climber.height -= 1;
        insert_climber(climber, &mut queue, queries);
    }
    output.sibling_hashes = sibling_hashes;
    Ok(output)
}

struct Walk {
    proof: ProofQuery,
    height: usize,
}

/// Walks `query_key`'s path to a leaf or an empty node, noting every node passed in `path_nodes`.
fn walk_path<S: NodeSource>(
    source: &mut S,
    nodes: &mut NodeMap,
    key_length: usize,
    root: &Hash,
    query_key: &[u8],
    path_nodes: &mut HashSet<Hash>,
) -> Result<(Walk, Vec<Hash>), SmtError<S::Error>> {
    let mut flags: Vec<bool> = Vec::new();
    let mut siblings: Vec<Hash> = Vec::new();
    let mut hash = *root;
    for depth in 0..=key_length * 8 {
        if is_empty(&hash) {
            let proof = ProofQuery { key: query_key.to_vec(), value: Vec::new(), bitmap: encode_bitmap(&flags) };
            return Ok((Walk { proof, height: flags.len() }, siblings));
        }
        let position = load(source, nodes, &hash)?;
        path_nodes.insert(hash);
        let (left, right) = match nodes.node(position, key_length) {
            Some(node @ Node::Leaf { .. }) => {
                let (key, value) = node.leaf_parts().expect("a leaf");
                let proof = ProofQuery { key: key.to_vec(), value: value.to_vec(), bitmap: encode_bitmap(&flags) };
                return Ok((Walk { proof, height: flags.len() }, siblings));
            }
            Some(Node::Branch { left, right }) => (left, right),
            None => return Err(SmtError::Malformed(hash)),
        };
        let go_right = key_bit(query_key, depth) == 1;
        let sibling = if go_right { left } else { right };
        if is_empty(&sibling) {
            flags.push(false);
        } else {
            flags.push(true);
            siblings.push(sibling);
        }
        hash = if go_right { right } else { left };
    }
    Err(SmtError::TooDeep)
}

/// Puts a climber back into the sorted queue, dropping it when the climber at its insertion point
/// stands at the same node (the paths merged); like lisk-db, only that one neighbour is compared.
fn insert_climber(climber: Climber, queue: &mut VecDeque<Climber>, queries: &[ProofQuery]) {
    let key = &queries[climber.query].key;
    let (mut low, mut high) = (-1isize, queue.len() as isize);
    while low + 1 < high {
        let middle = low + ((high - low) >> 1);
        let other = &queue[middle as usize];
        let goes_before = climber.height > other.height
            || (climber.height == other.height && key.as_slice() < queries[other.query].key.as_slice());
        if goes_before {
            high = middle;
        } else {
            low = middle;
        }
    }
    let at = high as usize;
    match queue.get(at) {
        None => queue.push_back(climber),
        Some(other) => {
            let same_node =
                other.height == climber.height && common_prefix_bits(key, &queries[other.query].key) >= climber.height;
            if !same_node {
                queue.insert(at, climber);
            }
        }
    }
}
