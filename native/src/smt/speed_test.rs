//! Timing of a large native-store update, run by hand:
//! `cargo test --release large_tree_update_speed -- --ignored --nocapture`
//! (`SMT_SPEED_ROUNDS=n` for more rounds, e.g. under `perf record`).
//!
//! It mirrors the bench row "native smt 10,000 updates into 1,000,000 leaves: native store" without
//! the JavaScript around it: batches of 5,000 existing and 5,000 new keys with 32-byte values,
//! sorted and applied below the same root, with one scratch map kept between batches as the addon
//! keeps it. It also prints a digest of every output (root, write set, removed list), so that a
//! change meant to be faster only can be checked to give the very same bytes.
use super::batch::SortedBatch;
use super::hash::EMPTY_HASH;
use super::node_map::{NodeMap, StoreSource};
use super::store::{FlatWriteSet, NodeStore};
use super::update::update;
use crate::sha256::Hasher;
use std::time::{Duration, Instant};

fn pseudo_random(length: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E3779B97F4A7C15).wrapping_add(1);
    (0..length)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// CPU time of this thread (less sensitive than wall time to other processes on a shared machine).
pub(crate) fn thread_cpu_time() -> Duration {
    #[repr(C)]
    struct Timespec {
        seconds: i64,
        nanoseconds: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut time = Timespec { seconds: 0, nanoseconds: 0 };
    // SAFETY: the call writes one timespec into `time`.
    unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut time) };
    Duration::new(time.seconds as u64, time.nanoseconds as u32)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
#[ignore]
fn large_tree_update_speed() {
    let leaves = 1_000_000;
    let rounds: usize = std::env::var("SMT_SPEED_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(8);
    let keys = pseudo_random(leaves * 32, 1);
    let values = pseudo_random(leaves * 32, 2);
    let ends: Vec<usize> = (1..=leaves).map(|i| i * 32).collect();
    let mut store = NodeStore::new();
    let t = Instant::now();
    let batch = SortedBatch::new(32, &keys, &values, &ends);
    let built = update(&mut StoreSource(&store.nodes), &mut NodeMap::with_capacity(16), &batch, &EMPTY_HASH).unwrap();
    println!("build {:?}", t.elapsed());
    let t = Instant::now();
    store.apply(
        &FlatWriteSet {
            write_hashes: &built.write_hashes,
            write_data: &built.write_data,
            write_ends: &built.write_ends,
            removed: &built.removed,
        },
        false,
    );
    println!("apply {:?} nodes {}", t.elapsed(), store.nodes.len());
    if let Ok(rollup) = std::fs::read_to_string("/proc/self/smaps_rollup") {
        for line in rollup.lines().filter(|line| line.starts_with("Rss") || line.starts_with("AnonHuge")) {
            println!("{line}");
        }
    }

    const BATCHES: usize = 4;
    let batches: Vec<(Vec<u8>, Vec<u8>, Vec<usize>)> = (0..BATCHES)
        .map(|b| {
            let picks = pseudo_random(5000 * 4, 10 + b as u64);
            let mut batch_keys = Vec::with_capacity(10000 * 32);
            for i in 0..5000 {
                let pick = u32::from_le_bytes(picks[i * 4..i * 4 + 4].try_into().unwrap()) as usize % leaves;
                batch_keys.extend_from_slice(&keys[pick * 32..pick * 32 + 32]);
            }
            batch_keys.extend(pseudo_random(5000 * 32, 20 + b as u64));
            (batch_keys, pseudo_random(10000 * 32, 30 + b as u64), (1..=10000).map(|i| i * 32).collect())
        })
        .collect();

    let mut scratch = NodeMap::with_capacity(16);
    let mut digests = vec![String::new(); BATCHES];
    let mut totals = Vec::new();
    let mut cpu_totals = Vec::new();
    let (mut sorting, mut updating) = (Duration::ZERO, Duration::ZERO);
    for round in 0..rounds {
        let t = Instant::now();
        let cpu = thread_cpu_time();
        for (b, (batch_keys, batch_values, batch_ends)) in batches.iter().enumerate() {
            let t0 = Instant::now();
            let batch = SortedBatch::new(32, batch_keys, batch_values, batch_ends);
            let t1 = Instant::now();
            scratch.reserve(batch.len() * 12);
            let out = update(&mut StoreSource(&store.nodes), &mut scratch, &batch, &built.root).unwrap();
            scratch.clear();
            let t2 = Instant::now();
            sorting += t1 - t0;
            updating += t2 - t1;
            if round == 0 {
                let mut hasher = Hasher::new();
                hasher.update(&out.root);
                hasher.update(&[out.root_changed as u8]);
                hasher.update(&out.write_hashes);
                hasher.update(&out.write_data);
                for end in &out.write_ends {
                    hasher.update(&end.to_le_bytes());
                }
                hasher.update(&out.removed);
                digests[b] = format!(
                    "{} writes {} removed {}",
                    hex(&hasher.finish()[..8]),
                    out.write_ends.len(),
                    out.removed.len() / 32
                );
            }
        }
        totals.push(t.elapsed() / BATCHES as u32);
        cpu_totals.push((thread_cpu_time() - cpu) / BATCHES as u32);
    }
    for (b, digest) in digests.iter().enumerate() {
        println!("batch {b} output {digest}");
    }
    let per_batch = (rounds * BATCHES) as u32;
    totals.sort();
    cpu_totals.sort();
    let median = totals[totals.len() / 2];
    println!(
        "10k updates: median {:?} ({:.0} updates/s), best {:?}, thread CPU median {:?}; sort {:?}, update {:?} per batch",
        median,
        10000.0 / median.as_secs_f64(),
        totals[0],
        cpu_totals[cpu_totals.len() / 2],
        sorting / per_batch,
        updating / per_batch
    );
    for _ in 0..3 {
        let t = Instant::now();
        let mut sink = 0u8;
        for i in 0..100_000u32 {
            let mut message = [0u8; 73];
            message[..4].copy_from_slice(&i.to_le_bytes());
            sink ^= crate::sha256::digest(&message)[0];
        }
        let one_shot = t.elapsed();
        let t = Instant::now();
        for i in 0..100_000u32 {
            let mut left = [0u8; 32];
            left[..4].copy_from_slice(&i.to_le_bytes());
            sink ^= super::hash::branch_hash(&left, &[0; 32])[0];
        }
        let single = t.elapsed();
        let t = Instant::now();
        let (mut first, mut second) = ([0u8; 128], [0u8; 128]);
        for i in 0..50_000u32 {
            first[..4].copy_from_slice(&i.to_le_bytes());
            second[..4].copy_from_slice(&(i + 7).to_le_bytes());
            first[73..].fill(0);
            second[73..].fill(0);
            let (a, b) = crate::sha256::digest_padded_pair_in_place(&mut first, 73, &mut second, 73);
            sink ^= a[0] ^ b[0];
        }
        println!(
            "100k independent 73-byte hashes: digest {:?}, branch_hash {:?}, in pairs {:?} {sink}",
            one_shot,
            single,
            t.elapsed()
        );
    }
    let t = Instant::now();
    let mut node = [7u8; 32];
    for _ in 0..100_000u32 {
        node = super::hash::branch_hash(&node, &node);
    }
    println!("100k branch hashes {:?} {}", t.elapsed(), node[0]);
}

/// Deferred hashing with messages of every size: leaves whose message does not fit the stack
/// buffers, pairs of different block counts, and a parent hashed after its children.
#[test]
fn long_and_short_leaves_hash_as_the_formula_says() {
    use super::hash::{branch_hash, leaf_hash};
    for (first_length, second_length) in [(300, 300), (300, 32), (1, 100), (200, 500), (32, 32)] {
        let first_key = [0x11u8; 32];
        let second_key = [0x91u8; 32];
        let first_value = pseudo_random(first_length, first_length as u64);
        let second_value = pseudo_random(second_length, 7 + second_length as u64);
        let keys = [first_key, second_key].concat();
        let values = [first_value.clone(), second_value.clone()].concat();
        let batch = SortedBatch::new(32, &keys, &values, &[first_length, first_length + second_length]);
        let store = NodeStore::new();
        let out = update(&mut StoreSource(&store.nodes), &mut NodeMap::with_capacity(16), &batch, &EMPTY_HASH).unwrap();
        let first = leaf_hash(&first_key, &first_value);
        let second = leaf_hash(&second_key, &second_value);
        assert_eq!(out.root, branch_hash(&first, &second), "values of {first_length} and {second_length} bytes");
        assert_eq!(out.write_hashes, [first, second, out.root].concat());
        assert_eq!(&out.write_data[out.write_ends[1] as usize..], &[&[1u8][..], &first, &second].concat()[..]);
    }
}

/// Gives 38-byte state keys the first six bytes they have in a node: one of a handful of module
/// store prefixes (most entries in one), the rest being a hash.
fn with_store_prefixes(keys: &mut [u8]) {
    const PREFIXES: [[u8; 6]; 4] =
        [[0, 0, 0, 2, 0x80, 0], [0, 0, 0, 10, 0x80, 0], [0, 0, 0, 10, 0xc0, 0], [0, 0, 0, 13, 0, 0]];
    for (i, key) in keys.chunks_exact_mut(38).enumerate() {
        let pick = if key[37] < 200 { 1 } else { i % PREFIXES.len() };
        key[..6].copy_from_slice(&PREFIXES[pick]);
    }
}

/// Memory of a 1,000,000-leaf state tree (38-byte keys under a few store prefixes, 32-byte values) after nine blocks of
/// 5,000 changed and 5,000 new keys, as the smt-store bench leaves it, and where it goes:
/// `cargo test --release tree_memory_breakdown -- --ignored --nocapture`.
#[test]
#[ignore]
fn tree_memory_breakdown() {
    const KEY: usize = 38;
    let leaves = 1_000_000;
    let mut keys = pseudo_random(leaves * KEY, 1);
    with_store_prefixes(&mut keys);
    let mut store = NodeStore::new();
    let mut root = EMPTY_HASH;
    // Returns the thread CPU time of the update and of the write set's apply.
    let apply = |store: &mut NodeStore, keys: &[u8], values: &[u8], root: &mut super::Hash| {
        let ends: Vec<usize> = (1..=keys.len() / KEY).map(|i| i * 32).collect();
        let batch = SortedBatch::new(KEY, keys, values, &ends);
        let start = thread_cpu_time();
        let out = update(&mut StoreSource(&store.nodes), &mut NodeMap::with_capacity(16), &batch, root).unwrap();
        let updated = thread_cpu_time();
        store.apply(
            &FlatWriteSet {
                write_hashes: &out.write_hashes,
                write_data: &out.write_data,
                write_ends: &out.write_ends,
                removed: &out.removed,
            },
            true,
        );
        *root = out.root;
        (updated - start, thread_cpu_time() - updated)
    };
    for chunk in 0..4 {
        let part = &keys[chunk * 250_000 * KEY..(chunk + 1) * 250_000 * KEY];
        apply(&mut store, part, &pseudo_random(250_000 * 32, 100 + chunk as u64), &mut root);
    }
    // `SMT_BLOCKS=n` for more blocks (more timings, a larger tree).
    let blocks: u64 = std::env::var("SMT_BLOCKS").ok().and_then(|v| v.parse().ok()).unwrap_or(9);
    let (mut updates, mut applies) = (Vec::new(), Vec::new());
    for b in 0..blocks {
        let picks = pseudo_random(5000 * 4, 10 + b);
        let count = keys.len() / KEY;
        let mut batch_keys = Vec::with_capacity(10000 * KEY);
        for i in 0..5000 {
            let pick = u32::from_le_bytes(picks[i * 4..i * 4 + 4].try_into().unwrap()) as usize % count;
            batch_keys.extend_from_slice(&keys[pick * KEY..pick * KEY + KEY]);
        }
        let mut fresh = pseudo_random(5000 * KEY, 20 + b);
        with_store_prefixes(&mut fresh);
        batch_keys.extend_from_slice(&fresh);
        keys.extend_from_slice(&fresh);
        let (updating, applying) = apply(&mut store, &batch_keys, &pseudo_random(10000 * 32, 30 + b), &mut root);
        updates.push(updating);
        applies.push(applying);
    }
    updates.sort();
    applies.sort();
    let path = std::env::temp_dir().join(format!("basalt-breakdown-snapshot-{}", std::process::id()));
    let (written, started) = (Instant::now(), thread_cpu_time());
    super::snapshot::write(&store.nodes, &path, b"stamp").expect("write");
    let (write_wall, write_cpu) = (written.elapsed(), thread_cpu_time() - started);
    let (read, started) = (Instant::now(), thread_cpu_time());
    let (loaded, _) = super::snapshot::read(&path).expect("read");
    println!(
        "snapshot write {write_wall:?} ({write_cpu:?} CPU), read {:?} ({:?} CPU), {} nodes, {} B",
        read.elapsed(),
        thread_cpu_time() - started,
        loaded.len(),
        loaded.arena_bytes()
    );
    std::fs::remove_file(&path).ok();
    let spread =
        |times: &[Duration]| format!("{:?} / {:?} / {:?}", times[0], times[times.len() / 2], times[times.len() - 1]);
    println!("per block, thread CPU min / median / max: update {}, apply {}", spread(&updates), spread(&applies));
    let entries = keys.len() / KEY;
    let total = store.nodes.arena_bytes();
    let breakdown = store.nodes.breakdown();
    let per_entry = |bytes: usize| bytes as f64 / entries as f64;
    println!("root {} entries {entries} nodes {}", hex(&root[..8]), store.nodes.len());
    println!("total {total} B = {:.1} B/entry", per_entry(total));
    println!("slots {} ({} used): {:.1} B/entry", breakdown.slots, breakdown.used, per_entry(breakdown.slots * 8));
    for (kind, count, bytes) in &breakdown.records {
        println!(
            "records, {kind}: {count} ({:.2} per entry), {:.1} B/entry",
            *count as f64 / entries as f64,
            per_entry(*bytes)
        );
    }
    println!(
        "removed records kept for their links {:.1} B/entry, garbage {:.1} B/entry (free-listed {:.1})",
        per_entry(breakdown.kept),
        per_entry(breakdown.garbage),
        per_entry(breakdown.free)
    );
}
