//! A thin, checked layer over the raw N-API calls of `sys.rs`: every status is turned into a
//! `JsError`, and argument conversions name the argument they reject. Nothing here is specific to
//! one exported function.

use super::sys::*;
use std::ffi::{c_void, CString};
use std::ptr;

/// Why a native function returns to JavaScript without a value.
#[derive(Debug)]
pub enum JsError {
    /// A JavaScript exception is already pending (a callback threw); it propagates unchanged.
    Pending,
    /// Thrown as a TypeError: an argument of the wrong type.
    Type(String),
    /// Thrown as a RangeError: an argument with a value out of range.
    Range(String),
    /// Thrown as an Error.
    Failure(String),
}

pub type JsResult<T> = Result<T, JsError>;

/// Error `code` property of every error the addon throws itself.
const ERROR_CODE: &[u8] = b"ERR_BASALT_NATIVE\0";

/// An N-API environment: valid only during the native call that received it.
#[derive(Clone, Copy)]
pub struct Env(pub napi_env);

impl Env {
    /// Turns a status into a result; a failed call with a pending exception reports `Pending`.
    pub fn check(self, status: napi_status, what: &str) -> JsResult<()> {
        if status == NAPI_OK {
            return Ok(());
        }
        let mut pending = false;
        // SAFETY: `self.0` is the live environment of the current call.
        unsafe { napi_is_exception_pending(self.0, &mut pending) };
        if pending || status == NAPI_PENDING_EXCEPTION {
            Err(JsError::Pending)
        } else {
            Err(JsError::Failure(format!("N-API call {what} failed with status {status}")))
        }
    }

    /// The first `N` arguments of the call (missing ones are `undefined`) and how many were given.
    pub fn args<const N: usize>(self, info: napi_callback_info) -> JsResult<([napi_value; N], usize)> {
        let mut argv = [ptr::null_mut(); N];
        let mut argc = N;
        // SAFETY: argv has room for argc values.
        let status =
            unsafe { napi_get_cb_info(self.0, info, &mut argc, argv.as_mut_ptr(), ptr::null_mut(), ptr::null_mut()) };
        self.check(status, "napi_get_cb_info")?;
        Ok((argv, argc))
    }

    /// The bytes of a Buffer, Uint8Array or other ArrayBufferView, borrowed for the current call.
    /// The caller must not keep the slice across a call into JavaScript that could change or
    /// detach the underlying memory.
    pub fn bytes<'a>(self, value: napi_value, name: &str) -> JsResult<&'a [u8]> {
        let mut data: *mut c_void = ptr::null_mut();
        let mut length = 0usize;
        // SAFETY: out-pointers are valid; a non-view value yields a non-ok status, not a throw.
        let status = unsafe { napi_get_buffer_info(self.0, value, &mut data, &mut length) };
        if status != NAPI_OK {
            return Err(JsError::Type(format!("{name} must be a Uint8Array")));
        }
        if length == 0 || data.is_null() {
            return Ok(&[]);
        }
        // SAFETY: node guarantees `length` readable bytes at `data` while the value is alive.
        Ok(unsafe { std::slice::from_raw_parts(data as *const u8, length) })
    }

    /// The bytes of a Buffer or Uint8Array, borrowed mutably for the current call (the caller
    /// must hold no other slice of the same memory).
    pub fn bytes_mut<'a>(self, value: napi_value, name: &str) -> JsResult<&'a mut [u8]> {
        let mut data: *mut c_void = ptr::null_mut();
        let mut length = 0usize;
        // SAFETY: out-pointers are valid; a non-view value yields a non-ok status, not a throw.
        let status = unsafe { napi_get_buffer_info(self.0, value, &mut data, &mut length) };
        if status != NAPI_OK {
            return Err(JsError::Type(format!("{name} must be a Uint8Array")));
        }
        if length == 0 || data.is_null() {
            return Ok(&mut []);
        }
        // SAFETY: node guarantees `length` writable bytes at `data` while the value is alive.
        Ok(unsafe { std::slice::from_raw_parts_mut(data as *mut u8, length) })
    }

    /// The elements of a Uint32Array, borrowed like `bytes`.
    pub fn u32_array<'a>(self, value: napi_value, name: &str) -> JsResult<&'a [u32]> {
        let mut kind: napi_typedarray_type = -1;
        let mut length = 0usize;
        let mut data: *mut c_void = ptr::null_mut();
        // SAFETY: out-pointers are valid; unused outputs may be null.
        let status = unsafe {
            napi_get_typedarray_info(self.0, value, &mut kind, &mut length, &mut data, ptr::null_mut(), ptr::null_mut())
        };
        if status != NAPI_OK || kind != NAPI_UINT32_ARRAY {
            return Err(JsError::Type(format!("{name} must be a Uint32Array")));
        }
        if length == 0 || data.is_null() {
            return Ok(&[]);
        }
        // SAFETY: a Uint32Array's data is 4-byte aligned and holds `length` elements.
        Ok(unsafe { std::slice::from_raw_parts(data as *const u32, length) })
    }

    pub fn u32(self, value: napi_value, name: &str) -> JsResult<u32> {
        let mut result = 0u32;
        // SAFETY: out-pointer is valid.
        let status = unsafe { napi_get_value_uint32(self.0, value, &mut result) };
        if status != NAPI_OK {
            return Err(JsError::Type(format!("{name} must be a number")));
        }
        Ok(result)
    }

    pub fn bool(self, value: napi_value, name: &str) -> JsResult<bool> {
        let mut result = false;
        // SAFETY: out-pointer is valid.
        let status = unsafe { napi_get_value_bool(self.0, value, &mut result) };
        if status != NAPI_OK {
            return Err(JsError::Type(format!("{name} must be a boolean")));
        }
        Ok(result)
    }

    /// Length of a JavaScript array.
    pub fn array_length(self, value: napi_value, name: &str) -> JsResult<u32> {
        let mut is_array = false;
        // SAFETY: out-pointer is valid.
        unsafe { napi_is_array(self.0, value, &mut is_array) };
        if !is_array {
            return Err(JsError::Type(format!("{name} must be an array")));
        }
        let mut length = 0u32;
        // SAFETY: `value` is an array.
        let status = unsafe { napi_get_array_length(self.0, value, &mut length) };
        self.check(status, "napi_get_array_length")?;
        Ok(length)
    }

    pub fn element(self, array: napi_value, index: u32) -> JsResult<napi_value> {
        let mut result = ptr::null_mut();
        // SAFETY: out-pointer is valid.
        let status = unsafe { napi_get_element(self.0, array, index, &mut result) };
        self.check(status, "napi_get_element")?;
        Ok(result)
    }

    pub fn type_of(self, value: napi_value) -> JsResult<napi_valuetype> {
        let mut result = NAPI_UNDEFINED;
        // SAFETY: out-pointer is valid.
        let status = unsafe { napi_typeof(self.0, value, &mut result) };
        self.check(status, "napi_typeof")?;
        Ok(result)
    }

    pub fn is_nullish(self, value: napi_value) -> JsResult<bool> {
        let kind = self.type_of(value)?;
        Ok(kind == NAPI_UNDEFINED || kind == NAPI_NULL)
    }

    pub fn expect_function(self, value: napi_value, name: &str) -> JsResult<napi_value> {
        if self.type_of(value)? != NAPI_FUNCTION {
            return Err(JsError::Type(format!("{name} must be a function or a native node store")));
        }
        Ok(value)
    }

    /// A new Buffer holding a copy of `bytes`.
    pub fn buffer_copy(self, bytes: &[u8]) -> JsResult<napi_value> {
        let mut result = ptr::null_mut();
        // SAFETY: `bytes` is readable for its length; node copies it.
        let status = unsafe {
            napi_create_buffer_copy(self.0, bytes.len(), bytes.as_ptr() as *const c_void, ptr::null_mut(), &mut result)
        };
        self.check(status, "napi_create_buffer_copy")?;
        Ok(result)
    }

    /// A Buffer that takes ownership of `bytes` without copying them (large results); V8 frees
    /// them through `drop_boxed_vec` when the Buffer is collected. Falls back to a copy where
    /// external buffers are not allowed.
    pub fn buffer_from_vec(self, bytes: Vec<u8>) -> JsResult<napi_value> {
        if bytes.len() < 4096 {
            return self.buffer_copy(&bytes);
        }
        let mut boxed = Box::new(bytes);
        let data = boxed.as_mut_ptr() as *mut c_void;
        let length = boxed.len();
        let hint = Box::into_raw(boxed);
        let mut result = ptr::null_mut();
        // SAFETY: `data` stays valid until the finalizer drops the Vec that owns it.
        let status = unsafe {
            napi_create_external_buffer(self.0, length, data, drop_boxed_vec, hint as *mut c_void, &mut result)
        };
        if status == NAPI_OK {
            return Ok(result);
        }
        // SAFETY: the finalizer will never run, so the Box is still ours.
        let bytes = unsafe { Box::from_raw(hint) };
        if status == NAPI_NO_EXTERNAL_BUFFERS_ALLOWED {
            return self.buffer_copy(&bytes);
        }
        self.check(status, "napi_create_external_buffer")?;
        unreachable!("a failed status always yields an error");
    }

    /// A new Uint32Array holding a copy of `values`.
    pub fn uint32_array(self, values: &[u32]) -> JsResult<napi_value> {
        let byte_length = values.len() * 4;
        let mut data: *mut c_void = ptr::null_mut();
        let mut buffer = ptr::null_mut();
        // SAFETY: out-pointers are valid.
        let status = unsafe { napi_create_arraybuffer(self.0, byte_length, &mut data, &mut buffer) };
        self.check(status, "napi_create_arraybuffer")?;
        if byte_length > 0 {
            // SAFETY: the new ArrayBuffer has `byte_length` writable bytes at `data`.
            unsafe { ptr::copy_nonoverlapping(values.as_ptr() as *const u8, data as *mut u8, byte_length) };
        }
        let mut result = ptr::null_mut();
        // SAFETY: the view covers exactly the new ArrayBuffer.
        let status = unsafe { napi_create_typedarray(self.0, NAPI_UINT32_ARRAY, values.len(), buffer, 0, &mut result) };
        self.check(status, "napi_create_typedarray")?;
        Ok(result)
    }

    pub fn uint32(self, value: u32) -> JsResult<napi_value> {
        let mut result = ptr::null_mut();
        // SAFETY: out-pointer is valid.
        let status = unsafe { napi_create_uint32(self.0, value, &mut result) };
        self.check(status, "napi_create_uint32")?;
        Ok(result)
    }

    /// A JavaScript number (exact for integers up to 2^53).
    pub fn number(self, value: f64) -> JsResult<napi_value> {
        let mut result = ptr::null_mut();
        // SAFETY: out-pointer is valid.
        let status = unsafe { napi_create_double(self.0, value, &mut result) };
        self.check(status, "napi_create_double")?;
        Ok(result)
    }

    pub fn string(self, value: &str) -> JsResult<napi_value> {
        let mut result = ptr::null_mut();
        // SAFETY: `value` is valid UTF-8 of the given length.
        let status = unsafe { napi_create_string_utf8(self.0, value.as_ptr() as *const _, value.len(), &mut result) };
        self.check(status, "napi_create_string_utf8")?;
        Ok(result)
    }

    pub fn boolean(self, value: bool) -> JsResult<napi_value> {
        let mut result = ptr::null_mut();
        // SAFETY: out-pointer is valid.
        let status = unsafe { napi_get_boolean(self.0, value, &mut result) };
        self.check(status, "napi_get_boolean")?;
        Ok(result)
    }

    pub fn undefined(self) -> JsResult<napi_value> {
        let mut result = ptr::null_mut();
        // SAFETY: out-pointer is valid.
        let status = unsafe { napi_get_undefined(self.0, &mut result) };
        self.check(status, "napi_get_undefined")?;
        Ok(result)
    }

    /// Calls `function` with `args` (and `this` undefined); a throw comes back as `Pending`.
    pub fn call(self, function: napi_value, args: &[napi_value]) -> JsResult<napi_value> {
        let receiver = self.undefined()?;
        let mut result = ptr::null_mut();
        // SAFETY: `args` holds `args.len()` live handles.
        let status = unsafe { napi_call_function(self.0, receiver, function, args.len(), args.as_ptr(), &mut result) };
        self.check(status, "napi_call_function")?;
        Ok(result)
    }

    /// Runs `body` inside its own handle scope, so that the handles it creates (one per element
    /// read from a large array, say) are released when it returns instead of at the end of the
    /// whole native call. `body` must not return handles.
    pub fn scoped<T>(self, body: impl FnOnce() -> JsResult<T>) -> JsResult<T> {
        let mut scope = ptr::null_mut();
        // SAFETY: out-pointer is valid.
        let status = unsafe { napi_open_handle_scope(self.0, &mut scope) };
        self.check(status, "napi_open_handle_scope")?;
        let result = body();
        // SAFETY: `scope` was opened above and nothing opened inside it is still open.
        unsafe { napi_close_handle_scope(self.0, scope) };
        result
    }

    /// A new empty object.
    pub fn object(self) -> JsResult<napi_value> {
        let mut result = ptr::null_mut();
        // SAFETY: out-pointer is valid.
        let status = unsafe { napi_create_object(self.0, &mut result) };
        self.check(status, "napi_create_object")?;
        Ok(result)
    }

    /// Adds `value` to `object` under `name` (a NUL-free ASCII name).
    pub fn set_property(self, object: napi_value, name: &str, value: napi_value) -> JsResult<()> {
        let name = CString::new(name).map_err(|_| JsError::Failure("property name contains NUL".into()))?;
        // SAFETY: `name` is NUL-terminated; handles are live.
        let status = unsafe { napi_set_named_property(self.0, object, name.as_ptr(), value) };
        self.check(status, "napi_set_named_property")
    }

    /// A new object that owns `data`: the Box is dropped when the object is garbage collected.
    /// The object carries `tag`, which `unwrap_boxed` checks before trusting the pointer.
    pub fn wrap_boxed<T>(self, data: Box<T>, tag: &napi_type_tag) -> JsResult<napi_value> {
        let object = self.object()?;
        let pointer = Box::into_raw(data);
        // SAFETY: the finalizer below reclaims exactly this Box, once.
        let status = unsafe {
            napi_wrap(self.0, object, pointer as *mut c_void, drop_boxed::<T>, ptr::null_mut(), ptr::null_mut())
        };
        if status != NAPI_OK {
            // SAFETY: wrapping failed, so the finalizer will not run and the Box is still ours.
            drop(unsafe { Box::from_raw(pointer) });
            self.check(status, "napi_wrap")?;
        }
        // SAFETY: `tag` outlives the call.
        let status = unsafe { napi_type_tag_object(self.0, object, tag) };
        self.check(status, "napi_type_tag_object")?;
        Ok(object)
    }

    /// The data of an object made by `wrap_boxed` with the same `tag`; a TypeError for any other
    /// value. The reference is valid during the current call only, and the caller must not
    /// create a second one to the same data (no JavaScript runs while it is held).
    pub fn unwrap_boxed<'a, T>(self, value: napi_value, tag: &napi_type_tag, name: &str) -> JsResult<&'a mut T> {
        let wrong_type = || JsError::Type(format!("{name} is not a native node store"));
        if self.type_of(value)? != NAPI_OBJECT {
            return Err(wrong_type());
        }
        let mut tagged = false;
        // SAFETY: `value` is an object; out-pointer is valid.
        let status = unsafe { napi_check_object_type_tag(self.0, value, tag, &mut tagged) };
        if status != NAPI_OK || !tagged {
            return Err(wrong_type());
        }
        let mut pointer: *mut c_void = ptr::null_mut();
        // SAFETY: out-pointer is valid.
        let status = unsafe { napi_unwrap(self.0, value, &mut pointer) };
        if status != NAPI_OK || pointer.is_null() {
            return Err(wrong_type());
        }
        // SAFETY: the tag guarantees `pointer` came from `wrap_boxed::<T>` and is still owned by
        // the live object `value`.
        Ok(unsafe { &mut *(pointer as *mut T) })
    }

    /// Tells V8 that native memory owned by JavaScript objects grew (or shrank) by `change`
    /// bytes, so that its garbage collector weighs them.
    pub fn adjust_external_memory(self, change: i64) {
        let mut adjusted = 0i64;
        // SAFETY: out-pointer is valid.
        unsafe { napi_adjust_external_memory(self.0, change, &mut adjusted) };
    }

    /// Makes `error` the pending JavaScript exception (nothing to do for `Pending`).
    pub fn throw(self, error: JsError) {
        let (thrower, message): (unsafe extern "C" fn(napi_env, *const i8, *const i8) -> napi_status, String) =
            match error {
                JsError::Pending => return,
                JsError::Type(message) => (napi_throw_type_error, message),
                JsError::Range(message) => (napi_throw_range_error, message),
                JsError::Failure(message) => (napi_throw_error, message),
            };
        let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
        // SAFETY: both strings are NUL-terminated.
        unsafe { thrower(self.0, ERROR_CODE.as_ptr() as *const i8, message.as_ptr()) };
    }
}

/// Finalizer of `buffer_from_vec`: frees the Vec whose memory the collected Buffer used.
unsafe extern "C" fn drop_boxed_vec(_env: napi_env, _data: *mut c_void, hint: *mut c_void) {
    // SAFETY: `hint` is the Box leaked by `buffer_from_vec`, finalized exactly once.
    drop(unsafe { Box::from_raw(hint as *mut Vec<u8>) });
}

/// Finalizer of `wrap_boxed`.
unsafe extern "C" fn drop_boxed<T>(_env: napi_env, data: *mut c_void, _hint: *mut c_void) {
    // SAFETY: `data` is the Box leaked by `wrap_boxed::<T>`, finalized exactly once.
    drop(unsafe { Box::from_raw(data as *mut T) });
}

/// Runs the body of an exported function: converts its error into a JavaScript exception and a
/// Rust panic into an Error (a panic must never unwind into node).
pub fn run_exported(
    env: napi_env,
    info: napi_callback_info,
    body: fn(Env, napi_callback_info) -> JsResult<napi_value>,
) -> napi_value {
    let env = Env(env);
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(env, info))) {
        Ok(Ok(value)) => value,
        Ok(Err(error)) => {
            env.throw(error);
            ptr::null_mut()
        }
        Err(_) => {
            env.throw(JsError::Failure("basalt native addon: internal error (panic)".into()));
            ptr::null_mut()
        }
    }
}
