//! `popVerify(publicKey, proof)`.

use crate::bls12_381;
use crate::napi::env::{Env, JsResult};
use crate::napi::sys::{napi_callback_info, napi_value};

/// `popVerify(publicKey: Uint8Array, proof: Uint8Array): boolean` — PopVerify of LIP 0038 for a
/// compressed 48-byte key and 96-byte proof; false for anything else, never a throw on bytes.
pub fn pop_verify(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([public_key, proof], _) = env.args::<2>(info)?;
    let valid = bls12_381::pop_verify(env.bytes(public_key, "publicKey")?, env.bytes(proof, "proof")?);
    env.boolean(valid)
}
