//! The addon's entry point: the functions node sees. Each exported function is a small adapter
//! that converts its arguments, calls the pure Rust code (`sha256`, `smt`, `bls12_381`) and
//! converts the result.

mod bls_exports;
mod fresh_smt_exports;
mod js_node_source;
mod node_store_exports;
mod sha256_exports;
mod smt_exports;

use crate::napi::env::{run_exported, Env, JsResult};
use crate::napi::sys::{napi_callback_info, napi_create_function, napi_env, napi_value};
use std::ptr;

/// The N-API version the addon is written against (every Node 20 provides it).
const NAPI_VERSION: i32 = 8;

/// Tells node which N-API version the module expects (read before `napi_register_module_v1`).
#[no_mangle]
pub extern "C" fn node_api_module_get_api_version_v1() -> i32 {
    NAPI_VERSION
}

type Exported = fn(Env, napi_callback_info) -> JsResult<napi_value>;

/// Declares the `extern "C"` trampoline node calls for an exported function.
macro_rules! trampoline {
    ($name:ident, $body:path) => {
        unsafe extern "C" fn $name(env: napi_env, info: napi_callback_info) -> napi_value {
            run_exported(env, info, $body as Exported)
        }
    };
}

trampoline!(sha256_trampoline, sha256_exports::sha256);
trampoline!(sha256_into_trampoline, sha256_exports::sha256_into);
trampoline!(sha256_many_trampoline, sha256_exports::sha256_many);
trampoline!(smt_update_trampoline, smt_exports::smt_update);
trampoline!(smt_prove_trampoline, smt_exports::smt_prove);
trampoline!(node_store_create_trampoline, node_store_exports::node_store_create);
trampoline!(node_store_get_trampoline, node_store_exports::node_store_get);
trampoline!(node_store_set_trampoline, node_store_exports::node_store_set);
trampoline!(node_store_delete_trampoline, node_store_exports::node_store_delete);
trampoline!(node_store_size_trampoline, node_store_exports::node_store_size);
trampoline!(node_store_apply_trampoline, node_store_exports::node_store_apply);
trampoline!(node_store_share_trampoline, node_store_exports::node_store_share);
trampoline!(node_store_attach_trampoline, node_store_exports::node_store_attach);
trampoline!(node_store_memory_trampoline, node_store_exports::node_store_memory);
trampoline!(node_store_write_snapshot_trampoline, node_store_exports::node_store_write_snapshot);
trampoline!(node_store_read_snapshot_trampoline, node_store_exports::node_store_read_snapshot);
trampoline!(pop_verify_trampoline, bls_exports::pop_verify);
trampoline!(smt_root_of_trampoline, fresh_smt_exports::smt_root_of);
trampoline!(event_root_trampoline, fresh_smt_exports::event_root);

/// Module initialisation: fills `exports` (N-API modules are context-aware, so this also runs in
/// every worker thread that loads the addon; the only state shared by threads is the stores
/// published with `nodeStoreShare`, see smt/store.rs).
#[no_mangle]
pub unsafe extern "C" fn napi_register_module_v1(env: napi_env, exports: napi_value) -> napi_value {
    let env_handle = Env(env);
    if let Err(error) = register(env_handle, exports) {
        env_handle.throw(error);
    }
    exports
}

fn register(env: Env, exports: napi_value) -> JsResult<()> {
    let functions: [(&str, unsafe extern "C" fn(napi_env, napi_callback_info) -> napi_value); 19] = [
        ("sha256", sha256_trampoline),
        ("sha256Into", sha256_into_trampoline),
        ("sha256Many", sha256_many_trampoline),
        ("smtUpdate", smt_update_trampoline),
        ("smtProve", smt_prove_trampoline),
        ("nodeStoreCreate", node_store_create_trampoline),
        ("nodeStoreGet", node_store_get_trampoline),
        ("nodeStoreSet", node_store_set_trampoline),
        ("nodeStoreDelete", node_store_delete_trampoline),
        ("nodeStoreSize", node_store_size_trampoline),
        ("nodeStoreApply", node_store_apply_trampoline),
        ("nodeStoreShare", node_store_share_trampoline),
        ("nodeStoreAttach", node_store_attach_trampoline),
        ("nodeStoreMemory", node_store_memory_trampoline),
        ("nodeStoreWriteSnapshot", node_store_write_snapshot_trampoline),
        ("nodeStoreReadSnapshot", node_store_read_snapshot_trampoline),
        ("popVerify", pop_verify_trampoline),
        ("smtRootOf", smt_root_of_trampoline),
        ("eventRoot", event_root_trampoline),
    ];
    for (name, callback) in functions {
        let mut function = ptr::null_mut();
        // SAFETY: `name` is valid UTF-8 of the given length; out-pointer is valid.
        let status = unsafe {
            napi_create_function(env.0, name.as_ptr() as *const _, name.len(), callback, ptr::null_mut(), &mut function)
        };
        env.check(status, "napi_create_function")?;
        env.set_property(exports, name, function)?;
    }
    let backend = if crate::sha256::uses_sha_extensions() { "sha-extensions" } else { "portable" };
    env.set_property(exports, "sha256Backend", env.string(backend)?)?;
    env.set_property(exports, "napiVersion", env.uint32(NAPI_VERSION as u32)?)?;
    Ok(())
}
