//! `smtRootOf` and `eventRoot`: argument conversion around fresh_smt.rs. The callers
//! (src/merkle/native/fresh-root.ts, src/chain/event.ts) check the arguments first and throw the
//! TypeScript code's errors; the checks here only keep bad input away from the Rust code.

use crate::fresh_smt::{self, FlatEvents, FlatEventsError};
use crate::napi::env::{Env, JsError, JsResult};
use crate::napi::sys::{napi_callback_info, napi_value};

/// `smtRootOf(keys, keyLength, values, valueEnds): Buffer` — the root of a tree built from
/// nothing with these entries (flat: key i is `keys[i·keyLength, …)`, value i ends at
/// `valueEnds[i]`); a repeated key keeps its last value, an empty value leaves its key out.
pub fn smt_root_of(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([keys, key_length, values, value_ends], _) = env.args::<4>(info)?;
    let keys = env.bytes(keys, "keys")?;
    let key_length = env.u32(key_length, "keyLength")? as usize;
    let values = env.bytes(values, "values")?;
    let value_ends = env.u32_array(value_ends, "valueEnds")?;
    if key_length == 0 || keys.len() != value_ends.len() * key_length {
        return Err(JsError::Range(format!("keys must hold {} keys of keyLength bytes", value_ends.len())));
    }
    let ends: Vec<usize> = fresh_smt::ranges(value_ends, values.len(), "valueEnds")
        .map_err(|_| JsError::Range("valueEnds must ascend to the end of values".into()))?
        .into_iter()
        .map(|(_, end)| end)
        .collect();
    env.buffer_copy(&fresh_smt::root_of_entries(key_length, keys, values, &ends))
}

/// `eventRoot(encoded, eventEnds, topics, topicEnds, eventTopicEnds, indexWords): Buffer` — the
/// block eventRoot of flat events (see fresh_smt::FlatEvents).
pub fn event_root(env: Env, info: napi_callback_info) -> JsResult<napi_value> {
    let ([encoded, event_ends, topics, topic_ends, event_topic_ends, index_words], _) = env.args::<6>(info)?;
    let events = FlatEvents {
        encoded: env.bytes(encoded, "encoded")?,
        event_ends: env.u32_array(event_ends, "eventEnds")?,
        topics: env.bytes(topics, "topics")?,
        topic_ends: env.u32_array(topic_ends, "topicEnds")?,
        event_topic_ends: env.u32_array(event_topic_ends, "eventTopicEnds")?,
        index_words: env.u32_array(index_words, "indexWords")?,
    };
    match fresh_smt::event_root(&events) {
        Ok(root) => env.buffer_copy(&root),
        Err(FlatEventsError::Inconsistent(what)) => Err(JsError::Range(format!("events are inconsistent: {what}"))),
        Err(FlatEventsError::IndexOverflow) => Err(JsError::Range("an event key index does not fit in 32 bits".into())),
    }
}
