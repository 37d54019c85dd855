//! The native node store seen from JavaScript: an opaque object (created by `nodeStoreCreate`,
//! or by `nodeStoreAttach` in another thread) that holds a `SharedStore`, and the functions that
//! read and change it.

use crate::napi::env::{Env, JsError, JsResult};
use crate::napi::sys::{napi_callback_info, napi_type_tag, napi_value};
use crate::smt::snapshot;
use crate::smt::store::{to_hash, FlatWriteSet, NodeStore, SharedStore};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Marks the objects that own a NodeStore (random, fixed for this addon).
const NODE_STORE_TAG: napi_type_tag = napi_type_tag { lower: 0x6261_7361_6c74_736d, upper: 0x9d1c_52e8_0f47_b3a1 };

/// Rough bytes per stored node beyond its data (index entry and spare capacity), for V8's
/// external-memory accounting.
const INDEX_BYTES_PER_NODE: i64 = 64;

/// The store held by `value`, borrowed for the current call (lock it to read or write).
pub fn store_argument<'a>(env: Env, value: napi_value) -> JsResult<&'a SharedStore> {
    env.unwrap_boxed::<SharedStore>(value, &NODE_STORE_TAG, "store").map(|store| &*store)
}

/// True when `value` is a store object (rather than a node-reader function).
pub fn is_store(env: Env, value: napi_value) -> bool {
    store_argument(env, value).is_ok()
}

fn footprint(store: &NodeStore) -> i64 {
    store.nodes.arena_bytes() as i64 + store.nodes.len() as i64 * INDEX_BYTES_PER_NODE
}

fn hash_argument(env: Env, value: napi_value) -> JsResult<[u8; 32]> {
    let bytes = env.bytes(value, "hash")?;
    if bytes.len() != 32 {
        return Err(JsError::Range(format!("hash must be 32 bytes, got {}", bytes.len())));
    }
    Ok(to_hash(bytes))
}

/// `nodeStoreCreate(): object` — a new empty store.
pub fn node_store_create(env: Env, _info: napi_callback_info) -> JsResult<napi_value> {
    env.wrap_boxed(Box::new(SharedStore::new()), &NODE_STORE_TAG)
}

/// `nodeStoreShare(store): number` — an id other threads pass to `nodeStoreAttach`.
pub fn node_store_share(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([store], _) = env.args::<1>(info)?;
    env.uint32(store_argument(env, store)?.publish())
}

/// `nodeStoreAttach(id): object | undefined` — this thread's handle on a shared store, or
/// undefined once no thread holds it any more.
pub fn node_store_attach(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([id], _) = env.args::<1>(info)?;
    match SharedStore::attach(env.u32(id, "id")?) {
        Some(store) => env.wrap_boxed(Box::new(store), &NODE_STORE_TAG),
        None => env.undefined(),
    }
}

/// `nodeStoreGet(store, hash): Buffer | undefined` — a copy of the node.
pub fn node_store_get(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([store, hash], _) = env.args::<2>(info)?;
    let hash = hash_argument(env, hash)?;
    let store = store_argument(env, store)?.read();
    match store.nodes.get(&hash) {
        Some(data) => env.buffer_copy(&data),
        None => env.undefined(),
    }
}

/// `nodeStoreSet(store, hash, data)` — stores a copy of `data` under `hash`.
pub fn node_store_set(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([store, hash, data], _) = env.args::<3>(info)?;
    let hash = hash_argument(env, hash)?;
    let data = env.bytes(data, "data")?;
    let mut store = store_argument(env, store)?.write();
    let before = footprint(&store);
    store.nodes.insert(hash, data);
    env.adjust_external_memory(footprint(&store) - before);
    env.undefined()
}

/// `nodeStoreDelete(store, hash)`.
pub fn node_store_delete(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([store, hash], _) = env.args::<2>(info)?;
    let hash = hash_argument(env, hash)?;
    let mut store = store_argument(env, store)?.write();
    let before = footprint(&store);
    store.nodes.remove(&hash);
    env.adjust_external_memory(footprint(&store) - before);
    env.undefined()
}

/// `nodeStoreSize(store): number` — the number of stored nodes.
pub fn node_store_size(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([store], _) = env.args::<1>(info)?;
    let store = store_argument(env, store)?.read();
    env.uint32(store.nodes.len() as u32)
}

/// `nodeStoreApply(store, writeHashes, writeData, writeEnds, removed, prune)` — a write set in
/// the flat form smtUpdate returns, applied without a JavaScript object per node.
pub fn node_store_apply(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([store, write_hashes, write_data, write_ends, removed, prune], _) = env.args::<6>(info)?;
    let writes = FlatWriteSet {
        write_hashes: env.bytes(write_hashes, "writeHashes")?,
        write_data: env.bytes(write_data, "writeData")?,
        write_ends: env.u32_array(write_ends, "writeEnds")?,
        removed: env.bytes(removed, "removed")?,
    };
    writes.check().map_err(JsError::Range)?;
    let prune = env.bool(prune, "prune")?;
    let mut store = store_argument(env, store)?.write();
    let before = footprint(&store);
    store.apply(&writes, prune);
    env.adjust_external_memory(footprint(&store) - before);
    env.undefined()
}

/// `nodeStoreMemory(store): number` — bytes of native memory the store's nodes occupy (records,
/// garbage not yet compacted, and the table).
pub fn node_store_memory(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([store], _) = env.args::<1>(info)?;
    let store = store_argument(env, store)?.read();
    env.number(store.nodes.arena_bytes() as f64)
}

fn path_argument<'a>(env: Env, value: napi_value) -> JsResult<&'a Path> {
    let bytes: &'a [u8] = env.bytes(value, "path")?;
    Ok(Path::new(OsStr::from_bytes(bytes)))
}

/// `nodeStoreWriteSnapshot(store, path, meta)` — writes every node and the stamp `meta` to the
/// file `path` (UTF-8 bytes), durably (smt/snapshot.rs). Throws an Error when the write fails.
pub fn node_store_write_snapshot(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([store, path, meta], _) = env.args::<3>(info)?;
    let path = path_argument(env, path)?;
    let meta = env.bytes(meta, "meta")?;
    let store = store_argument(env, store)?.read();
    snapshot::write(&store.nodes, path, meta)
        .map_err(|error| JsError::Failure(format!("cannot write the snapshot: {error}")))?;
    env.undefined()
}

/// `nodeStoreReadSnapshot(store, path): Buffer` — replaces the store's nodes with those of the
/// snapshot at `path` and returns its stamp. Throws an Error saying why when the file cannot be
/// read or is not an intact snapshot; the store is then unchanged.
pub fn node_store_read_snapshot(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([store, path], _) = env.args::<2>(info)?;
    let path = path_argument(env, path)?;
    let shared = store_argument(env, store)?;
    let (nodes, meta) = snapshot::read(path).map_err(|error| match error {
        snapshot::LoadError::Io(error) => JsError::Failure(format!("cannot read the snapshot: {error}")),
        snapshot::LoadError::Invalid(reason) => JsError::Failure(format!("damaged snapshot: {reason}")),
    })?;
    let mut store = shared.write();
    let before = footprint(&store);
    store.nodes = nodes;
    env.adjust_external_memory(footprint(&store) - before);
    drop(store);
    env.buffer_from_vec(meta)
}
