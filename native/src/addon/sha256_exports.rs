//! `sha256(data)` and `sha256Many(data, lengths)`.

use crate::napi::env::{Env, JsError, JsResult};
use crate::napi::sys::{napi_callback_info, napi_value};
use crate::sha256;

/// `sha256(data: Uint8Array): Buffer` — the 32-byte digest.
pub fn sha256(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([data], _) = env.args::<1>(info)?;
    let digest = sha256::digest(env.bytes(data, "data")?);
    env.buffer_copy(&digest)
}

/// `sha256Into(data: Uint8Array, out: Uint8Array, offset: number): void` — writes the digest
/// into `out` at `offset`. No Buffer is created: allocating one from native code costs several
/// times the hash itself, so a caller that hashes in a loop passes a scratch buffer.
pub fn sha256_into(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([data, out, offset], _) = env.args::<3>(info)?;
    let digest = sha256::digest(env.bytes(data, "data")?);
    let offset = env.u32(offset, "offset")? as usize;
    let out = env.bytes_mut(out, "out")?;
    if offset.checked_add(32).is_none_or(|end| end > out.len()) {
        return Err(JsError::Range(format!("out has no room for 32 bytes at offset {offset}")));
    }
    out[offset..offset + 32].copy_from_slice(&digest);
    env.undefined()
}

/// `sha256Many(data: Uint8Array, lengths: Uint32Array): Buffer` — the digests of consecutive
/// segments of `data` (segment i is `lengths[i]` bytes), back to back: one call for many small
/// inputs, where the cost of crossing into native code would otherwise dominate.
pub fn sha256_many(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([data, lengths], _) = env.args::<2>(info)?;
    let data = env.bytes(data, "data")?;
    let lengths = env.u32_array(lengths, "lengths")?;
    let total: u64 = lengths.iter().map(|&length| u64::from(length)).sum();
    if total != data.len() as u64 {
        return Err(JsError::Range(format!("lengths add up to {total} bytes but data holds {}", data.len())));
    }
    let mut digests = Vec::with_capacity(lengths.len() * 32);
    let mut start = 0usize;
    for &length in lengths {
        let end = start + length as usize;
        digests.extend_from_slice(&sha256::digest(&data[start..end]));
        start = end;
    }
    env.buffer_from_vec(digests)
}
