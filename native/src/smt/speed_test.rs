//! Timing of a large native-store update, run by hand: `cargo test --release -- --ignored --nocapture`.
use super::batch::SortedBatch;
use super::hash::EMPTY_HASH;
use super::node_map::{NodeMap, StoreSource};
use super::store::{FlatWriteSet, NodeStore};
use super::update::update;
use std::time::Instant;

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

#[test]
#[ignore]
fn large_tree_update_speed() {
    let leaves = 1_000_000;
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
    let mut batch_keys = keys[..5000 * 32].to_vec();
    for i in 0..5000 {
        let at = (i * 197 % leaves) * 32;
        batch_keys[i * 32..i * 32 + 32].copy_from_slice(&keys[at..at + 32]);
    }
    batch_keys.extend(pseudo_random(5000 * 32, 3));
    let batch_values = pseudo_random(10000 * 32, 4);
    let batch_ends: Vec<usize> = (1..=10000).map(|i| i * 32).collect();
    for _ in 0..5 {
        let t = Instant::now();
        let batch = SortedBatch::new(32, &batch_keys, &batch_values, &batch_ends);
        let out =
            update(&mut StoreSource(&store.nodes), &mut NodeMap::with_capacity(120_000), &batch, &built.root).unwrap();
        println!("update 10k {:?} writes {}", t.elapsed(), out.write_ends.len());
    }
    let t = Instant::now();
    let mut sink = 0u8;
    for i in 0..100_000u32 {
        sink ^= crate::sha256::digest(&[i as u8; 73])[0];
    }
    println!("100k branch-sized hashes {:?} {sink}", t.elapsed());
}
