//! The slice of the Node-API C interface this addon uses, declared by hand (no bindgen, no napi
//! crates: crates.io is out of reach). Signatures follow node's `js_native_api.h` and `node_api.h`
//! (N-API version 8, available on every Node 20). The symbols are not linked at build time: the
//! `.node` file is loaded into the node process, which exports them, and the dynamic loader binds
//! them then.
#![allow(non_camel_case_types)]

use std::ffi::{c_char, c_void};

/// Opaque handles (pointers to structures private to node).
pub type napi_env = *mut c_void;
pub type napi_value = *mut c_void;
pub type napi_callback_info = *mut c_void;
pub type napi_handle_scope = *mut c_void;
pub type napi_ref = *mut c_void;

/// A 128-bit tag marking objects that wrap one kind of native data (`napi_type_tag`).
#[repr(C)]
pub struct napi_type_tag {
    pub lower: u64,
    pub upper: u64,
}

/// `napi_status` is a C enum: an `int` on every platform node supports.
pub type napi_status = i32;
pub const NAPI_OK: napi_status = 0;
pub const NAPI_PENDING_EXCEPTION: napi_status = 10;
pub const NAPI_NO_EXTERNAL_BUFFERS_ALLOWED: napi_status = 22;

/// `napi_valuetype` values that the addon tells apart.
pub type napi_valuetype = i32;
pub const NAPI_UNDEFINED: napi_valuetype = 0;
pub const NAPI_NULL: napi_valuetype = 1;
pub const NAPI_OBJECT: napi_valuetype = 6;
pub const NAPI_FUNCTION: napi_valuetype = 7;

/// `napi_typedarray_type` values used here.
pub type napi_typedarray_type = i32;
pub const NAPI_UINT32_ARRAY: napi_typedarray_type = 6;

pub type napi_callback = unsafe extern "C" fn(env: napi_env, info: napi_callback_info) -> napi_value;
pub type napi_finalize = unsafe extern "C" fn(env: napi_env, data: *mut c_void, hint: *mut c_void);

extern "C" {
    pub fn napi_get_undefined(env: napi_env, result: *mut napi_value) -> napi_status;
    pub fn napi_get_boolean(env: napi_env, value: bool, result: *mut napi_value) -> napi_status;
    pub fn napi_create_object(env: napi_env, result: *mut napi_value) -> napi_status;
    pub fn napi_create_uint32(env: napi_env, value: u32, result: *mut napi_value) -> napi_status;
    pub fn napi_create_double(env: napi_env, value: f64, result: *mut napi_value) -> napi_status;
    pub fn napi_create_string_utf8(
        env: napi_env,
        s: *const c_char,
        length: usize,
        result: *mut napi_value,
    ) -> napi_status;
    pub fn napi_create_function(
        env: napi_env,
        name: *const c_char,
        length: usize,
        cb: napi_callback,
        data: *mut c_void,
        result: *mut napi_value,
    ) -> napi_status;
    pub fn napi_get_cb_info(
        env: napi_env,
        info: napi_callback_info,
        argc: *mut usize,
        argv: *mut napi_value,
        this_arg: *mut napi_value,
        data: *mut *mut c_void,
    ) -> napi_status;
    pub fn napi_typeof(env: napi_env, value: napi_value, result: *mut napi_valuetype) -> napi_status;
    pub fn napi_get_value_bool(env: napi_env, value: napi_value, result: *mut bool) -> napi_status;
    pub fn napi_wrap(
        env: napi_env,
        js_object: napi_value,
        native_object: *mut c_void,
        finalize_cb: napi_finalize,
        finalize_hint: *mut c_void,
        result: *mut napi_ref,
    ) -> napi_status;
    pub fn napi_unwrap(env: napi_env, js_object: napi_value, result: *mut *mut c_void) -> napi_status;
    pub fn napi_type_tag_object(env: napi_env, value: napi_value, type_tag: *const napi_type_tag) -> napi_status;
    pub fn napi_check_object_type_tag(
        env: napi_env,
        value: napi_value,
        type_tag: *const napi_type_tag,
        result: *mut bool,
    ) -> napi_status;
    pub fn napi_adjust_external_memory(env: napi_env, change_in_bytes: i64, adjusted_value: *mut i64) -> napi_status;
    pub fn napi_get_value_uint32(env: napi_env, value: napi_value, result: *mut u32) -> napi_status;
    pub fn napi_set_named_property(
        env: napi_env,
        object: napi_value,
        name: *const c_char,
        value: napi_value,
    ) -> napi_status;
    pub fn napi_get_array_length(env: napi_env, value: napi_value, result: *mut u32) -> napi_status;
    pub fn napi_is_array(env: napi_env, value: napi_value, result: *mut bool) -> napi_status;
    pub fn napi_get_element(env: napi_env, object: napi_value, index: u32, result: *mut napi_value) -> napi_status;
    pub fn napi_call_function(
        env: napi_env,
        recv: napi_value,
        func: napi_value,
        argc: usize,
        argv: *const napi_value,
        result: *mut napi_value,
    ) -> napi_status;
    pub fn napi_throw_error(env: napi_env, code: *const c_char, msg: *const c_char) -> napi_status;
    pub fn napi_throw_type_error(env: napi_env, code: *const c_char, msg: *const c_char) -> napi_status;
    pub fn napi_throw_range_error(env: napi_env, code: *const c_char, msg: *const c_char) -> napi_status;
    pub fn napi_is_exception_pending(env: napi_env, result: *mut bool) -> napi_status;
    pub fn napi_open_handle_scope(env: napi_env, result: *mut napi_handle_scope) -> napi_status;
    pub fn napi_close_handle_scope(env: napi_env, scope: napi_handle_scope) -> napi_status;
    pub fn napi_create_arraybuffer(
        env: napi_env,
        length: usize,
        data: *mut *mut c_void,
        result: *mut napi_value,
    ) -> napi_status;
    pub fn napi_create_typedarray(
        env: napi_env,
        kind: napi_typedarray_type,
        length: usize,
        arraybuffer: napi_value,
        byte_offset: usize,
        result: *mut napi_value,
    ) -> napi_status;
    pub fn napi_get_typedarray_info(
        env: napi_env,
        typedarray: napi_value,
        kind: *mut napi_typedarray_type,
        length: *mut usize,
        data: *mut *mut c_void,
        arraybuffer: *mut napi_value,
        byte_offset: *mut usize,
    ) -> napi_status;

    // node_api.h (Buffer helpers; a "buffer" here is any ArrayBufferView, Uint8Array included).
    pub fn napi_create_buffer_copy(
        env: napi_env,
        length: usize,
        data: *const c_void,
        result_data: *mut *mut c_void,
        result: *mut napi_value,
    ) -> napi_status;
    pub fn napi_create_external_buffer(
        env: napi_env,
        length: usize,
        data: *mut c_void,
        finalize_cb: napi_finalize,
        finalize_hint: *mut c_void,
        result: *mut napi_value,
    ) -> napi_status;
    pub fn napi_get_buffer_info(
        env: napi_env,
        value: napi_value,
        data: *mut *mut c_void,
        length: *mut usize,
    ) -> napi_status;
}
