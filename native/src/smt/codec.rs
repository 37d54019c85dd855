//! Storage encoding of SMT nodes, the same as src/merkle/smt/node-codec.ts:
//!
//!   leaf:   0x00 ‖ key ‖ value
//!   branch: 0x01 ‖ leftHash ‖ rightHash
//!
//! Any first byte other than 0x00 is read as a branch, as the TypeScript tree does.

use super::Hash;
use std::borrow::Cow;

pub const LEAF_TAG: u8 = 0x00;
pub const BRANCH_TAG: u8 = 0x01;
pub const BRANCH_NODE_LENGTH: usize = 65;

/// A stored node, decoded just enough to walk the tree. A leaf's data is borrowed from the map,
/// or owned when the map rebuilt it (a compact leaf, see node_map.rs).
pub enum Node<'a> {
    Leaf { data: Cow<'a, [u8]>, key_length: usize },
    Branch { left: Hash, right: Hash },
}

impl Node<'_> {
    /// A leaf's key and value.
    pub fn leaf_parts(&self) -> Option<(&[u8], &[u8])> {
        match self {
            Node::Leaf { data, key_length } => Some((&data[1..1 + key_length], &data[1 + key_length..])),
            Node::Branch { .. } => None,
        }
    }
}

/// `decode` of data the caller hands over (a rebuilt leaf).
pub fn decode_owned(data: Vec<u8>, key_length: usize) -> Option<Node<'static>> {
    match decode(&data, key_length)? {
        Node::Leaf { .. } => Some(Node::Leaf { data: Cow::Owned(data), key_length }),
        Node::Branch { left, right } => Some(Node::Branch { left, right }),
    }
}

/// Decodes `data`; None when it is too short for its kind (a leaf needs its full key).
pub fn decode(data: &[u8], key_length: usize) -> Option<Node<'_>> {
    match data.first()? {
        &LEAF_TAG => {
            if data.len() < 1 + key_length {
                return None;
            }
            Some(Node::Leaf { data: Cow::Borrowed(data), key_length })
        }
        _ => {
            if data.len() < BRANCH_NODE_LENGTH {
                return None;
            }
            let mut left = [0u8; 32];
            let mut right = [0u8; 32];
            left.copy_from_slice(&data[1..33]);
            right.copy_from_slice(&data[33..65]);
            Some(Node::Branch { left, right })
        }
    }
}

pub fn encode_leaf(out: &mut Vec<u8>, key: &[u8], value: &[u8]) {
    out.push(LEAF_TAG);
    out.extend_from_slice(key);
    out.extend_from_slice(value);
}

pub fn encode_branch(out: &mut Vec<u8>, left: &Hash, right: &Hash) {
    out.push(BRANCH_TAG);
    out.extend_from_slice(left);
    out.extend_from_slice(right);
}
