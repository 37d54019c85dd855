//! The node store seen from Rust: a JavaScript function `readNodes(hashes, count)` that receives
//! `count` hashes back to back in one Buffer and returns an array of `count` node encodings
//! (undefined or null for a hash the store does not hold).

use crate::napi::env::{Env, JsError};
use crate::napi::sys::napi_value;
use crate::smt::node_map::{NodeMap, NodeSource};
use crate::smt::Hash;

pub struct JsNodeSource {
    env: Env,
    read_nodes: napi_value,
}

impl JsNodeSource {
    pub fn new(env: Env, read_nodes: napi_value) -> Result<JsNodeSource, JsError> {
        Ok(JsNodeSource { env, read_nodes: env.expect_function(read_nodes, "nodes")? })
    }
}

impl NodeSource for JsNodeSource {
    type Error = JsError;

    fn fetch(&mut self, hashes: &[Hash], nodes: &mut NodeMap) -> Result<(), JsError> {
        let env = self.env;
        // One handle scope per call: the handles of the returned nodes die with it (their bytes
        // are copied into the node map).
        env.scoped(|| {
            let argument = env.buffer_copy(hashes.as_flattened())?;
            let count = env.uint32(hashes.len() as u32)?;
            let found = env.call(self.read_nodes, &[argument, count])?;
            let length = env.array_length(found, "the result of readNodes")?;
            if length as usize != hashes.len() {
                return Err(JsError::Type(format!("readNodes returned {length} nodes for {} hashes", hashes.len())));
            }
            for (index, hash) in hashes.iter().enumerate() {
                let node = env.element(found, index as u32)?;
                match env.bytes(node, "a node returned by readNodes") {
                    Ok(data) => nodes.insert(*hash, data),
                    Err(error) => {
                        if !env.is_nullish(node)? {
                            return Err(error);
                        }
                    }
                }
            }
            Ok(())
        })
    }
}
