//! `smtUpdate` and `smtProve`: argument conversion around smt::update and smt::prove. The caller
//! (src/native/sparse-merkle-tree.ts) validates arguments with the TypeScript tree's messages
//! first; the checks here only keep bad input from reaching Rust code that assumes it is valid.

use super::js_node_source::JsNodeSource;
use super::node_store_exports::{is_store, store_argument};
use crate::napi::env::{Env, JsError, JsResult};
use crate::napi::sys::{napi_callback_info, napi_value};
use crate::smt::batch::SortedBatch;
use crate::smt::hash::EMPTY_HASH;
use crate::smt::node_map::{NodeMap, StoreSource};
use crate::smt::{prove, update, Hash, SmtError};
use crate::smt_output;
use std::cell::RefCell;
use std::convert::Infallible;

thread_local! {
    /// The map of the last operation on this thread, kept for the next one: allocating and
    /// touching fresh memory for each batch (megabytes, page by page) costs more than clearing.
    static SCRATCH: RefCell<Option<NodeMap>> = const { RefCell::new(None) };
}

/// Scratch maps larger than this (in slots) are not kept after the operation.
const SCRATCH_MAX_SLOTS: usize = 1 << 20;

/// Runs `operation` with an empty node map sized for `expected` nodes: the thread's scratch map
/// when it is free (a nested call, from inside a node-reader callback, gets a fresh one).
fn with_scratch_map<T>(expected: usize, operation: impl FnOnce(&mut NodeMap) -> T) -> T {
    let mut map =
        SCRATCH.with(|scratch| scratch.borrow_mut().take()).unwrap_or_else(|| NodeMap::with_capacity(expected));
    map.reserve(expected);
    let result = operation(&mut map);
    if map.capacity_slots() <= SCRATCH_MAX_SLOTS {
        map.clear();
        SCRATCH.with(|scratch| *scratch.borrow_mut() = Some(map));
    }
    result
}

/// The root argument: 32 bytes, or empty bytes for the empty tree.
fn root_argument(env: Env, value: napi_value) -> JsResult<Hash> {
    let bytes = env.bytes(value, "root")?;
    match bytes.len() {
        0 => Ok(EMPTY_HASH),
        32 => Ok(bytes.try_into().expect("length checked")),
        length => Err(JsError::Range(format!("root must be 32 bytes or empty, got {length}"))),
    }
}

fn key_length_argument(env: Env, value: napi_value) -> JsResult<usize> {
    let key_length = env.u32(value, "keyLength")? as usize;
    if key_length == 0 {
        return Err(JsError::Range("keyLength must be at least 1".into()));
    }
    Ok(key_length)
}

/// Copies an array of `key_length`-byte keys into one flat Vec. Everything is copied before any
/// callback runs, so JavaScript cannot change the input under the Rust code's feet.
fn flat_keys(env: Env, array: napi_value, key_length: usize, name: &str) -> JsResult<Vec<u8>> {
    let count = env.array_length(array, name)?;
    let mut keys = Vec::with_capacity(count as usize * key_length);
    for index in 0..count {
        let key = env.bytes(env.element(array, index)?, name)?;
        if key.len() != key_length {
            return Err(JsError::Range(format!("every key must be {key_length} bytes, got {}", key.len())));
        }
        keys.extend_from_slice(key);
    }
    Ok(keys)
}

/// An error of an operation on the native store, whose source cannot fail.
fn from_store(error: SmtError<Infallible>) -> SmtError<JsError> {
    match error {
        SmtError::Missing(hash) => SmtError::Missing(hash),
        SmtError::Malformed(hash) => SmtError::Malformed(hash),
        SmtError::TooDeep => SmtError::TooDeep,
        SmtError::Source(never) => match never {},
    }
}

/// Turns a failed SMT operation into a result object `{ missingNode }` or a thrown error.
fn smt_failure(env: Env, error: SmtError<JsError>) -> JsResult<napi_value> {
    match error {
        SmtError::Missing(hash) => {
            let result = env.object()?;
            env.set_property(result, "missingNode", env.buffer_copy(&hash)?)?;
            Ok(result)
        }
        SmtError::Malformed(hash) => Err(JsError::Failure(format!("SMT node {} is malformed", to_hex(&hash)))),
        SmtError::TooDeep => Err(JsError::Failure("SMT path is longer than the key: the node store is corrupt".into())),
        SmtError::Source(error) => Err(error),
    }
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// `smtUpdate(root, keys, values, keyLength, nodes)` →
/// `{ root?, writeHashes, writeData, writeEnds, removed }` (root absent when unchanged) or
/// `{ missingNode }`. `nodes` is a native store, or a `readNodes(hashes, count)` function over a
/// JavaScript one.
pub fn smt_update(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([root, keys, values, key_length, nodes], _) = env.args::<5>(info)?;
    let root = root_argument(env, root)?;
    let key_length = key_length_argument(env, key_length)?;
    let flat = flat_keys(env, keys, key_length, "keys")?;
    let count = flat.len() / key_length;
    if env.array_length(values, "values")? as usize != count {
        return Err(JsError::Range("values must have one entry per key".into()));
    }
    let mut value_bytes = Vec::new();
    let mut value_ends = Vec::with_capacity(count);
    for index in 0..count {
        value_bytes.extend_from_slice(env.bytes(env.element(values, index as u32)?, "values")?);
        value_ends.push(value_bytes.len());
    }
    let batch = SortedBatch::new(key_length, &flat, &value_bytes, &value_ends);
    drop((flat, value_bytes, value_ends));

    // Every argument is read before the store is borrowed: nothing runs JavaScript after that.
    let result = if is_store(env, nodes) {
        let store = store_argument(env, nodes)?.read();
        with_scratch_map(batch.len() * 12, |read| {
            update::update(&mut StoreSource(&store.nodes), read, &batch, &root).map_err(from_store)
        })
    } else {
        let mut source = JsNodeSource::new(env, nodes)?;
        with_scratch_map(batch.len() * 12, |read| update::update(&mut source, read, &batch, &root))
    };
    let output = match result {
        Ok(output) => output,
        Err(error) => return smt_failure(env, error),
    };
    let result = env.object()?;
    if output.root_changed {
        env.set_property(result, "root", env.buffer_copy(&output.root)?)?;
    }
    // Small write sets are copied and their vectors kept for the next update (smt_output.rs says
    // why); a huge one (a tree built from a whole state) is handed over as it is.
    if smt_output::worth_keeping(&output) {
        env.set_property(result, "writeHashes", env.buffer_copy(&output.write_hashes)?)?;
        env.set_property(result, "writeData", env.buffer_copy(&output.write_data)?)?;
        env.set_property(result, "writeEnds", env.uint32_array(&output.write_ends)?)?;
        env.set_property(result, "removed", env.buffer_copy(&output.removed)?)?;
        smt_output::keep_output(output);
    } else {
        env.set_property(result, "writeHashes", env.buffer_from_vec(output.write_hashes)?)?;
        env.set_property(result, "writeData", env.buffer_from_vec(output.write_data)?)?;
        env.set_property(result, "writeEnds", env.uint32_array(&output.write_ends)?)?;
        env.set_property(result, "removed", env.buffer_from_vec(output.removed)?)?;
    }
    Ok(result)
}

/// `smtProve(root, queryKeys, keyLength, nodes)` →
/// `{ siblingHashes, keys, values, valueEnds, bitmaps, bitmapEnds }` (flat, see
/// src/native/native-addon.ts) or `{ missingNode }`. `nodes` as for smtUpdate.
pub fn smt_prove(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([root, query_keys, key_length, nodes], _) = env.args::<4>(info)?;
    let root = root_argument(env, root)?;
    let key_length = key_length_argument(env, key_length)?;
    let flat = flat_keys(env, query_keys, key_length, "queryKeys")?;
    let result = if is_store(env, nodes) {
        let store = store_argument(env, nodes)?.read();
        with_scratch_map(flat.len() / key_length * 24, |read| {
            prove::prove(&mut StoreSource(&store.nodes), read, key_length, &root, &flat).map_err(from_store)
        })
    } else {
        let mut source = JsNodeSource::new(env, nodes)?;
        with_scratch_map(flat.len() / key_length * 24, |read| prove::prove(&mut source, read, key_length, &root, &flat))
    };
    let proof = match result {
        Ok(proof) => proof,
        Err(error) => return smt_failure(env, error),
    };
    let (mut keys, mut values, mut bitmaps) = (Vec::new(), Vec::new(), Vec::new());
    let (mut value_ends, mut bitmap_ends) = (Vec::new(), Vec::new());
    for query in &proof.queries {
        keys.extend_from_slice(&query.key);
        values.extend_from_slice(&query.value);
        value_ends.push(values.len() as u32);
        bitmaps.extend_from_slice(&query.bitmap);
        bitmap_ends.push(bitmaps.len() as u32);
    }
    let result = env.object()?;
    env.set_property(result, "siblingHashes", env.buffer_from_vec(proof.sibling_hashes.as_flattened().to_vec())?)?;
    env.set_property(result, "keys", env.buffer_from_vec(keys)?)?;
    env.set_property(result, "values", env.buffer_from_vec(values)?)?;
    env.set_property(result, "valueEnds", env.uint32_array(&value_ends)?)?;
    env.set_property(result, "bitmaps", env.buffer_from_vec(bitmaps)?)?;
    env.set_property(result, "bitmapEnds", env.uint32_array(&bitmap_ends)?)?;
    Ok(result)
}
