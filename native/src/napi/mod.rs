//! Hand-written Node-API bindings: raw declarations (`sys`) and a checked layer over them (`env`).
pub mod env;
pub mod sys;
