//! SMT nodes by hash, in memory: the map one operation reads from, and the native node store.

use super::store::to_hash;
use super::{Hash, SmtError};

/// Where an operation gets the nodes its `NodeMap` lacks (for the addon: a JavaScript function
/// over the caller's node store, or the native store).
pub trait NodeSource {
    type Error;
    /// Looks up `hashes` and adds every node found to `nodes`; absent nodes are simply not added
    /// (the operation reports them only if it really needs them).
    fn fetch(&mut self, hashes: &[Hash], nodes: &mut NodeMap) -> Result<(), Self::Error>;

    /// The map that already holds every node of this source, when the source is one (the native
    /// store). An update then reads that map in place: copying each node it needs into its own
    /// map first costs a second hash-table insert per node and leaves the copies in an order the
    /// recursion does not read them in.
    fn resident(&self) -> Option<&NodeMap> {
        None
    }
}

/// The source of an operation on the native store. Nodes are copied from the store into the
/// operation's own small map a tree level at a time, as for a JavaScript store: the lookups of
/// one level do not depend on each other, so their cache misses overlap (see `copy_many_into`),
/// where the recursion that follows would wait for each in turn (a large store is mostly out of
/// the CPU's caches).
pub struct StoreSource<'a>(pub &'a NodeMap);

impl NodeSource for StoreSource<'_> {
    type Error = std::convert::Infallible;
    fn fetch(&mut self, hashes: &[Hash], nodes: &mut NodeMap) -> Result<(), Self::Error> {
        self.0.copy_many_into(hashes, nodes);
        Ok(())
    }

    fn resident(&self) -> Option<&NodeMap> {
        Some(self.0)
    }
}

/// Where a node's bytes are in the arena: (start, length).
pub type Position = (usize, usize);

/// Slot values: empty, a removed entry (probing continues past it), or
/// `(record + 1) << 24 | length code << 16 | tag`, the record's offset in the arena, its data
/// length (`LONG` for data too long for the code) and two bytes of its hash.
const EMPTY_SLOT: u64 = 0;
const REMOVED_SLOT: u64 = 1;
const TAG_BITS: u32 = 16;
const TAG_MASK: u64 = (1 << TAG_BITS) - 1;
const RECORD_SHIFT: u32 = 24;
const LENGTH_MASK: u64 = 0xff;
/// The length code of a record whose data length is written in the record itself.
const LONG: usize = 0xff;
/// A record in the arena: the 32-byte hash, then the data; a long one (data of `LONG` bytes or
/// more, rare: only leaves with long values) has its data length (u32, little-endian) between
/// the two. A state tree's nodes are all short: their length lives in the slot, not the arena.
const HASH_LENGTH: usize = 32;
const LONG_HEADER: usize = 36;
/// A table is rebuilt once this share of its slots is taken (removed entries included)...
const MAX_LOAD: (usize, usize) = (2, 3);
/// ...with enough slots that its live entries fill this share of them. Linear probing stays short
/// below the limit, and a table of millions of nodes is not up to four times its live count as a
/// power of two was. (Filled to three fifths and rebuilt at three quarters it took 5 B less per
/// state entry, but the smt-store bench's tree update was some 10% slower.)
const REBUILT_LOAD: (usize, usize) = (1, 2);
/// Below this arena size garbage is not worth a compaction.
const COMPACTION_FLOOR: usize = 1 << 20;
/// Lookups in flight at once in `copy_many_into`.
const LOOKAHEAD: usize = 16;
/// Records of removed nodes with at most this much data are kept on free lists and reused.
const MAX_REUSED_DATA: usize = 128;
/// No record on a free list.
const NO_RECORD: usize = usize::MAX;

/// Nodes by hash in an open-addressing table of 8-byte slots over one arena of records.
///
/// Node hashes are SHA-256 outputs, uniformly spread, so their first eight bytes pick the slot
/// and two more bytes are kept in the slot as a tag: a lookup reads one slot and, nearly always,
/// only the one record it is after (the hash is stored with the data, so the record is one
/// contiguous read). With the 48-byte entries of a general-purpose map that was three cache
/// misses per node in a store of millions; this is two, and batches overlap them.
///
/// Records are never moved while the map is only read (positions stay valid as the arena grows).
/// A removed node's record goes on a free list by data length, and the next node inserted with
/// that length takes its place: a tree's nodes come in two or three sizes (branches, leaves), and
/// a block removes nearly as many nodes as it adds, so the arena stays about as large as its live
/// records. Other garbage (larger records, replaced data) is compacted once it is half the arena.
pub struct NodeMap {
    slots: Vec<u64>,
    arena: Vec<u8>,
    /// Occupied slots, removed ones included (they lengthen probes until the next resize).
    used: usize,
    live: usize,
    /// Bytes of the arena not in a live record (free-listed records included).
    garbage: usize,
    /// Per data length, the first free record (its successor's offset is kept in its first eight
    /// bytes), or NO_RECORD.
    free: Vec<usize>,
}

#[inline]
fn word(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

#[inline]
fn tag_of(hash: &Hash) -> u64 {
    u64::from(u16::from_le_bytes([hash[8], hash[9]]))
}

/// True when the 32 bytes at `record` are `hash` (word compares, no call to memcmp).
#[inline]
fn same_hash(arena: &[u8], record: usize, hash: &Hash) -> bool {
    let stored = &arena[record..record + 32];
    word(stored, 0) == word(hash, 0)
        && word(stored, 8) == word(hash, 8)
        && word(stored, 16) == word(hash, 16)
        && word(stored, 24) == word(hash, 24)
}

/// Hints the CPU to load the cache line at `pointer` (no effect on correctness).
#[inline(always)]
pub(crate) fn prefetch<T>(pointer: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults, whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch(pointer as *const i8, core::arch::x86_64::_MM_HINT_T0)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = pointer;
}

impl NodeMap {
    pub fn with_capacity(nodes: usize) -> NodeMap {
        let slots = table_size(nodes);
        NodeMap {
            slots: empty_slots(slots),
            arena: arena_with_capacity(nodes * 104),
            used: 0,
            live: 0,
            garbage: 0,
            free: no_free_records(),
        }
    }

    #[inline]
    fn home(&self, hash: &Hash) -> usize {
        home_slot(word(hash, 0), self.slots.len())
    }

    /// Index of the slot holding `hash`, if stored.
    #[inline]
    fn find_slot(&self, hash: &Hash) -> Option<usize> {
        let tag = tag_of(hash);
        let mut index = self.home(hash);
        loop {
            let slot = self.slots[index];
            if slot == EMPTY_SLOT {
                return None;
            }
            if slot != REMOVED_SLOT && slot & TAG_MASK == tag && same_hash(&self.arena, record_of(slot), hash) {
                return Some(index);
            }
            index = next_slot(index, self.slots.len());
        }
    }

    #[inline]
    fn record_position(&self, slot: u64) -> Position {
        let record = record_of(slot);
        let code = ((slot >> TAG_BITS) & LENGTH_MASK) as usize;
        if code != LONG {
            return (record + HASH_LENGTH, code);
        }
        let length = u32::from_le_bytes(self.arena[record + 32..record + 36].try_into().expect("4 bytes")) as usize;
        (record + LONG_HEADER, length)
    }

    pub fn contains(&self, hash: &Hash) -> bool {
        self.find_slot(hash).is_some()
    }

    #[inline]
    pub fn position(&self, hash: &Hash) -> Option<Position> {
        self.find_slot(hash).map(|index| self.record_position(self.slots[index]))
    }

    #[inline]
    pub fn bytes(&self, (start, length): Position) -> &[u8] {
        &self.arena[start..start + length]
    }

    #[inline]
    pub fn get(&self, hash: &Hash) -> Option<&[u8]> {
        self.position(hash).map(|position| self.bytes(position))
    }

    /// Keeps a copy of `data` under `hash`, replacing any node stored under that hash.
    pub fn insert(&mut self, hash: Hash, data: &[u8]) {
        if let Some(index) = self.find_slot(&hash) {
            let position = self.record_position(self.slots[index]);
            if self.bytes(position) == data {
                return;
            }
            self.garbage += record_size(position.1);
            self.slots[index] = self.append_record(&hash, data);
            return;
        }
        if (self.used + 1) * MAX_LOAD.1 > self.slots.len() * MAX_LOAD.0 {
            self.resize(table_size(self.live + 1));
        }
        let slot = self.append_record(&hash, data);
        let mut index = self.home(&hash);
        // A removed slot could be reused, but only after checking the rest of the probe for
        // `hash`, which find_slot just did: reusing the first free-or-removed slot is safe.
        while self.slots[index] > REMOVED_SLOT {
            index = next_slot(index, self.slots.len());
        }
        if self.slots[index] == EMPTY_SLOT {
            self.used += 1;
        }
        self.slots[index] = slot;
        self.live += 1;
    }

    fn append_record(&mut self, hash: &Hash, data: &[u8]) -> u64 {
        if let Some(&record) = self.free.get(data.len()).filter(|&&record| record != NO_RECORD) {
            self.free[data.len()] = word(&self.arena, record) as usize;
            self.arena[record..record + 32].copy_from_slice(hash);
            self.arena[record + HASH_LENGTH..record + HASH_LENGTH + data.len()].copy_from_slice(data);
            self.garbage -= record_size(data.len());
            return slot_value(record, data.len(), hash);
        }
        self.reserve_arena(record_size(data.len()));
        let record = self.arena.len();
        self.arena.extend_from_slice(hash);
        if data.len() >= LONG {
            self.arena.extend_from_slice(&(data.len() as u32).to_le_bytes());
        }
        self.arena.extend_from_slice(data);
        slot_value(record, data.len(), hash)
    }

    /// Forgets the node under `hash`, if any. Not to be called while an operation holds positions.
    pub fn remove(&mut self, hash: &Hash) {
        let Some(index) = self.find_slot(hash) else { return };
        let record = record_of(self.slots[index]);
        let (_, length) = self.record_position(self.slots[index]);
        self.slots[index] = REMOVED_SLOT;
        self.live -= 1;
        self.garbage += record_size(length);
        if length <= MAX_REUSED_DATA {
            let next = self.free[length] as u64;
            self.arena[record..record + 8].copy_from_slice(&next.to_le_bytes());
            self.free[length] = record;
        }
        if self.garbage > COMPACTION_FLOOR && self.garbage * 2 > self.arena.len() {
            self.compact();
        }
    }

    /// Removes the nodes of `hashes` (32 bytes each) and then stores `writes`, as `remove` and
    /// `insert` one by one would, with the lookups pipelined as in `find_each`: in a store of
    /// millions of nodes each one is a cache miss or two, and a block's write set is some 300,000.
    pub fn apply_batch(
        &mut self,
        removed: &[u8],
        writes: impl Iterator<Item = (Hash, std::ops::Range<usize>)> + Clone,
        data: &[u8],
    ) {
        let removed: Vec<Hash> = removed.chunks_exact(32).map(to_hash).collect();
        for (index, hash) in removed.iter().enumerate() {
            self.prefetch_ahead(removed.get(index + 2 * LOOKAHEAD), removed.get(index + LOOKAHEAD));
            self.remove(hash);
        }
        let hashes: Vec<Hash> = writes.clone().map(|(hash, _)| hash).collect();
        // One rebuild for the whole batch, if any, sized for all of it (inserts one at a time
        // would grow the table by small steps).
        if (self.used + hashes.len()) * MAX_LOAD.1 > self.slots.len() * MAX_LOAD.0 {
            self.resize(table_size(self.live + hashes.len()));
        }
        for (index, (hash, range)) in writes.enumerate() {
            self.prefetch_ahead(hashes.get(index + 2 * LOOKAHEAD), hashes.get(index + LOOKAHEAD));
            self.insert(hash, &data[range]);
        }
    }

    /// Requests the home slot of `slot_of` and the record `record_of`'s home slot points to.
    #[inline(always)]
    fn prefetch_ahead(&self, slot_of: Option<&Hash>, record_of: Option<&Hash>) {
        if let Some(hash) = slot_of {
            prefetch(&self.slots[self.home(hash)]);
        }
        if let Some(hash) = record_of {
            self.prefetch_record(hash);
        }
    }

    /// Copies the nodes of `hashes` that this map holds into `into`. Lookups go in groups: the
    /// home slots of a whole group are requested from memory first, then the records they point
    /// to, and only then is each compared and copied, so that the cache misses of a group are
    /// in flight together instead of one after another.
    pub fn copy_many_into(&self, hashes: &[Hash], into: &mut NodeMap) {
        if self.live == 0 {
            return;
        }
        for group in hashes.chunks(LOOKAHEAD) {
            for hash in group {
                prefetch(&self.slots[self.home(hash)]);
            }
            for hash in group {
                let slot = self.slots[self.home(hash)];
                if slot > REMOVED_SLOT {
                    prefetch(&self.arena[record_of(slot)]);
                }
            }
            for hash in group {
                if let Some(position) = self.position(hash) {
                    into.insert(*hash, self.bytes(position));
                }
            }
        }
    }

    /// Calls `found(i, position, bytes)` for each node of `hashes` this map holds, in order. The
    /// lookups are pipelined: while lookup i is made, the home slot of lookup i + 2L and the
    /// record that lookup i + L's slot points to are already being fetched from memory (L =
    /// LOOKAHEAD), so that in a map much larger than the caches the misses of some 2L lookups are
    /// in flight at once, with no pause between groups. `found` sees each node right after its
    /// lookup, while its record is still in the cache.
    #[inline]
    pub fn find_each(&self, hashes: &[Hash], mut found: impl FnMut(usize, Position, &[u8])) {
        if self.live == 0 {
            return;
        }
        for hash in hashes.iter().take(2 * LOOKAHEAD) {
            prefetch(&self.slots[self.home(hash)]);
        }
        for hash in hashes.iter().take(LOOKAHEAD) {
            self.prefetch_record(hash);
        }
        for (index, hash) in hashes.iter().enumerate() {
            if let Some(ahead) = hashes.get(index + 2 * LOOKAHEAD) {
                prefetch(&self.slots[self.home(ahead)]);
            }
            if let Some(ahead) = hashes.get(index + LOOKAHEAD) {
                self.prefetch_record(ahead);
            }
            if let Some(position) = self.position(hash) {
                found(index, position, self.bytes(position));
            }
        }
    }

    /// Requests the cache lines of the record that `hash`'s home slot points to: the hash at its
    /// start and the rest of it (a branch is 97 bytes with its hash, a state leaf 103).
    #[inline(always)]
    fn prefetch_record(&self, hash: &Hash) {
        let slot = self.slots[self.home(hash)];
        if slot > REMOVED_SLOT {
            let record = self.arena.as_ptr().wrapping_add(record_of(slot));
            prefetch(record);
            prefetch(record.wrapping_add(64));
            prefetch(record.wrapping_add(HASH_LENGTH + 64));
        }
    }

    pub fn len(&self) -> usize {
        self.live
    }

    /// Forgets every node but keeps the memory, ready for the next operation.
    pub fn clear(&mut self) {
        // An operation that read the store in place left this map untouched: no slot to reset.
        if self.used > 0 {
            self.slots.fill(EMPTY_SLOT);
        }
        self.arena.clear();
        self.used = 0;
        self.live = 0;
        self.garbage = 0;
        self.free.fill(NO_RECORD);
    }

    /// Makes room for at least `nodes` nodes without growing during the operation.
    pub fn reserve(&mut self, nodes: usize) {
        let slots = table_size(nodes);
        if slots > self.slots.len() {
            self.resize(slots);
        }
        self.reserve_arena(nodes * 104);
    }

    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Number of slots of the table (its size in memory is eight bytes each, plus the arena).
    pub fn capacity_slots(&self) -> usize {
        self.slots.len()
    }

    /// Where the bytes of `arena_bytes` go: (slots, used slots, live records by data length as
    /// (length, count), garbage bytes, free-listed bytes).
    pub fn breakdown(&self) -> (usize, usize, Vec<(usize, usize)>, usize, usize) {
        let mut lengths = std::collections::BTreeMap::new();
        for &slot in self.slots.iter().filter(|&&slot| slot > REMOVED_SLOT) {
            *lengths.entry(self.record_position(slot).1).or_insert(0usize) += 1;
        }
        let mut free = 0;
        for (length, &first) in self.free.iter().enumerate() {
            let mut record = first;
            while record != NO_RECORD {
                free += record_size(length);
                record = word(&self.arena, record) as usize;
            }
        }
        (self.slots.len(), self.used, lengths.into_iter().collect(), self.garbage, free)
    }

    /// Bytes held, garbage included (for memory accounting).
    pub fn arena_bytes(&self) -> usize {
        self.arena.len() + self.slots.len() * 8
    }

    /// An empty buffer with room for `bytes` of snapshot records (see `from_records`) and a
    /// quarter more for the blocks that follow. Not advised for huge pages yet: a fresh huge page
    /// is zeroed (and, on a fragmented machine, compacted for) when first touched, which made
    /// reading a snapshot of a million leaves five times slower here; advised once full, the
    /// pages are merged in the background instead.
    pub fn arena_for_records(bytes: usize) -> Vec<u8> {
        Vec::with_capacity(bytes + bytes / 4)
    }

    /// Calls `record(hash, data)` for each live node, in slot order (see snapshot.rs).
    pub fn for_each_record(&self, mut record: impl FnMut(&[u8], &[u8])) {
        for &slot in self.slots.iter().filter(|&&slot| slot > REMOVED_SLOT) {
            let (start, length) = self.record_position(slot);
            let at = record_of(slot);
            record(&self.arena[at..at + HASH_LENGTH], &self.arena[start..start + length]);
        }
    }

    /// A map over `records`, `count` of them back to back as a snapshot stores them: hash, data
    /// length (u32, little-endian), data. The buffer becomes the arena: each record is moved
    /// down over the length fields of those before it (a short record has none in the arena),
    /// with nothing hashed again; only the table is built, from the hashes the records carry.
    /// Fails if the records do not parse into exactly `count` nodes with distinct hashes.
    pub fn from_records(records: Vec<u8>, count: usize) -> Result<NodeMap, String> {
        let slots = table_size(count);
        // Advised for huge pages only once written (see `arena_for_records`).
        let mut map = NodeMap {
            slots: vec![EMPTY_SLOT; slots],
            arena: records,
            used: 0,
            live: 0,
            garbage: 0,
            free: no_free_records(),
        };
        let (mut at, mut to) = (0usize, 0usize);
        let end = map.arena.len();
        while at < end {
            if end - at < LONG_HEADER {
                return Err(format!("a node record is cut short at byte {at}"));
            }
            let length = u32::from_le_bytes(map.arena[at + 32..at + 36].try_into().expect("4 bytes")) as usize;
            if length > end - at - LONG_HEADER {
                return Err(format!("the node record at byte {at} runs past the end"));
            }
            if map.live == count {
                return Err(format!("more than the {count} nodes announced"));
            }
            let hash = to_hash(&map.arena[at..at + 32]);
            if map.find_slot(&hash).is_some() {
                return Err(format!("the node record at byte {at} repeats an earlier node"));
            }
            // Records only ever move down (`to` <= `at`), so the ones still to read are intact.
            if length >= LONG {
                map.arena.copy_within(at..at + LONG_HEADER + length, to);
            } else {
                map.arena.copy_within(at..at + HASH_LENGTH, to);
                map.arena.copy_within(at + LONG_HEADER..at + LONG_HEADER + length, to + HASH_LENGTH);
            }
            let mut index = map.home(&hash);
            while map.slots[index] != EMPTY_SLOT {
                index = next_slot(index, slots);
            }
            map.slots[index] = slot_value(to, length, &hash);
            map.live += 1;
            at += LONG_HEADER + length;
            to += record_size(length);
        }
        if map.live != count {
            return Err(format!("{} nodes where {count} were announced", map.live));
        }
        map.arena.truncate(to);
        map.used = map.live;
        advise_huge_pages(map.slots.as_ptr() as *const u8, map.slots.len() * std::mem::size_of::<u64>());
        advise_huge_pages(map.arena.as_ptr(), map.arena.capacity());
        Ok(map)
    }

    /// Makes room for `additional` more arena bytes. The arena grows into fresh memory advised
    /// for huge pages (see `advise_huge_pages`), not by `realloc`, which would move the pages
    /// already mapped, small ones, into the new block. It grows eightfold: every growth faults
    /// in and zeroes the copied bytes anew, while capacity not yet written costs no memory, so
    /// a large factor keeps the pages touched during a long build near the arena's size.
    #[inline]
    fn reserve_arena(&mut self, additional: usize) {
        if self.arena.capacity() - self.arena.len() < additional {
            let capacity = (self.arena.capacity() * 8).max(self.arena.len() + additional).max(4096);
            let mut arena = arena_with_capacity(capacity);
            arena.extend_from_slice(&self.arena);
            self.arena = arena;
        }
    }

    /// Rebuilds the table with `slots` slots (dropping removed entries). A slot does not say
    /// where its home is, its record's hash does: the records of the slots a little ahead are
    /// requested first, so that the misses of a large table overlap.
    fn resize(&mut self, slots: usize) {
        let old = std::mem::replace(&mut self.slots, empty_slots(slots));
        let live: Vec<u64> = old.into_iter().filter(|&slot| slot > REMOVED_SLOT).collect();
        for (at, &slot) in live.iter().enumerate() {
            if let Some(&ahead) = live.get(at + 2 * LOOKAHEAD) {
                prefetch(self.arena.as_ptr().wrapping_add(record_of(ahead)));
            }
            let mut index = home_slot(word(&self.arena, record_of(slot)), slots);
            while self.slots[index] != EMPTY_SLOT {
                index = next_slot(index, slots);
            }
            self.slots[index] = slot;
        }
        self.used = self.live;
    }

    /// Copies the live records into a fresh arena and rebuilds the table around them.
    fn compact(&mut self) {
        let mut arena = arena_with_capacity((self.arena.len() - self.garbage) * 5 / 4);
        for index in 0..self.slots.len() {
            let slot = self.slots[index];
            if slot <= REMOVED_SLOT {
                continue;
            }
            let (start, length) = self.record_position(slot);
            let moved = arena.len();
            arena.extend_from_slice(&self.arena[record_of(slot)..start + length]);
            self.slots[index] = ((moved as u64 + 1) << RECORD_SHIFT) | (slot & ((1 << RECORD_SHIFT) - 1));
        }
        self.arena = arena;
        self.garbage = 0;
        self.free.fill(NO_RECORD);
        let slots = self.slots.len();
        self.resize(slots);
    }
}

/// Slots for a table of `nodes` entries (see `REBUILT_LOAD`).
fn table_size(nodes: usize) -> usize {
    (nodes * REBUILT_LOAD.1 / REBUILT_LOAD.0).max(8) + 1
}

/// The home slot of a hash whose first eight bytes are `word`, in a table of `slots`: the word
/// scaled to the table (any size, not only powers of two, so that it fits the live count).
#[inline(always)]
fn home_slot(word: u64, slots: usize) -> usize {
    ((u128::from(word) * slots as u128) >> 64) as usize
}

#[inline(always)]
fn next_slot(index: usize, slots: usize) -> usize {
    if index + 1 == slots {
        0
    } else {
        index + 1
    }
}

/// Offset in the arena of the record an occupied slot points to.
#[inline(always)]
fn record_of(slot: u64) -> usize {
    ((slot >> RECORD_SHIFT) - 1) as usize
}

#[inline(always)]
fn slot_value(record: usize, length: usize, hash: &Hash) -> u64 {
    ((record as u64 + 1) << RECORD_SHIFT) | ((length.min(LONG) as u64) << TAG_BITS) | tag_of(hash)
}

/// Arena bytes of a record with `length` bytes of data.
#[inline(always)]
fn record_size(length: usize) -> usize {
    length + if length >= LONG { LONG_HEADER } else { HASH_LENGTH }
}

fn no_free_records() -> Vec<usize> {
    vec![NO_RECORD; MAX_REUSED_DATA + 1]
}

/// A table of `count` empty slots (zeroed memory, not touched yet, advised for huge pages).
fn empty_slots(count: usize) -> Vec<u64> {
    let slots = vec![EMPTY_SLOT; count];
    advise_huge_pages(slots.as_ptr() as *const u8, count * std::mem::size_of::<u64>());
    slots
}

fn arena_with_capacity(bytes: usize) -> Vec<u8> {
    let arena = Vec::with_capacity(bytes);
    advise_huge_pages(arena.as_ptr(), bytes);
    arena
}

/// Asks Linux to back the memory at `start` with 2 MiB pages where it can (transparent huge
/// pages in `madvise` mode, the common default, are only given to memory that asks). A store of
/// millions of nodes is hundreds of megabytes read at random: with 4 KiB pages nearly every
/// lookup also misses the TLB and waits for a page walk. Only advice: nothing changes if it is
/// refused. Small blocks are left alone.
fn advise_huge_pages(start: *const u8, length: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    if length < HUGE_PAGE {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        extern "C" {
            fn madvise(address: *mut std::ffi::c_void, length: usize, advice: i32) -> i32;
        }
        const MADV_HUGEPAGE: i32 = 14;
        const PAGE: usize = 4096;
        let first = (start as usize).next_multiple_of(PAGE);
        let end = (start as usize + length) & !(PAGE - 1);
        if end > first {
            // SAFETY: the range lies within one live allocation; the advice changes how the kernel
            // backs it, never its contents or its validity.
            unsafe { madvise(first as *mut std::ffi::c_void, end - first, MADV_HUGEPAGE) };
        }
    }
}

/// Position of the node stored under `hash`, asking the source for it if it is not in the map.
pub fn load<S: NodeSource>(source: &mut S, nodes: &mut NodeMap, hash: &Hash) -> Result<Position, SmtError<S::Error>> {
    if let Some(position) = nodes.position(hash) {
        return Ok(position);
    }
    source.fetch(std::slice::from_ref(hash), nodes).map_err(SmtError::Source)?;
    nodes.position(hash).ok_or(SmtError::Missing(*hash))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sha256::digest;

    fn hash(i: u32) -> Hash {
        digest(&i.to_le_bytes())
    }

    #[test]
    fn insert_replace_remove_and_compact() {
        let mut map = NodeMap::with_capacity(4);
        let big = vec![7u8; COMPACTION_FLOOR];
        map.insert(hash(1), &big);
        map.insert(hash(2), b"two");
        map.insert(hash(2), b"deux");
        assert_eq!(map.get(&hash(2)), Some(&b"deux"[..]));
        assert_eq!(map.len(), 2);
        map.insert(hash(3), &big);
        map.remove(&hash(1));
        map.remove(&hash(3));
        // Two megabytes of garbage out of about two: compacted.
        assert!(map.arena.len() < 100);
        assert_eq!(map.get(&hash(2)), Some(&b"deux"[..]));
        assert_eq!(map.get(&hash(1)), None);
        assert_eq!(map.len(), 1);
    }

    #[test]
    fn removed_records_are_reused_by_nodes_of_their_length() {
        let mut map = NodeMap::with_capacity(4);
        for i in 0..100u32 {
            map.insert(hash(i), &[i as u8; 65]);
        }
        let arena = map.arena.len();
        for round in 1..5u32 {
            let mut removed = Vec::new();
            for i in (0..100u32).filter(|i| i % 4 == 0) {
                removed.extend_from_slice(&hash(i + (round - 1) * 1000));
            }
            let fresh: Vec<(Hash, Vec<u8>)> = (0..100u32)
                .filter(|i| i % 4 == 0)
                .map(|i| (hash(i + round * 1000), vec![(i + round) as u8; 65]))
                .collect();
            let data: Vec<u8> = fresh.iter().flat_map(|(_, bytes)| bytes.clone()).collect();
            let writes = fresh.iter().enumerate().map(|(n, (h, _))| (*h, n * 65..(n + 1) * 65));
            map.apply_batch(&removed, writes, &data);
            // Each round replaces the quarter the previous one wrote: every freed record is taken.
            assert_eq!(map.arena.len(), arena, "round {round}: the arena did not grow");
            for (h, bytes) in &fresh {
                assert_eq!(map.get(h), Some(&bytes[..]));
            }
        }
        // A length with no free record is appended; one above the reuse bound is never free-listed.
        map.insert(hash(9999), &[1; 200]);
        map.remove(&hash(9999));
        map.insert(hash(9998), &[2; 200]);
        assert_eq!(map.arena.len(), arena + 2 * record_size(200));
        assert_eq!(map.get(&hash(9998)), Some(&[2u8; 200][..]));
    }

    #[test]
    fn long_records_keep_their_length_in_the_arena() {
        let mut map = NodeMap::with_capacity(4);
        let sizes = [0usize, 1, 65, 128, 254, 255, 256, 300, 70_000];
        for (i, &size) in sizes.iter().enumerate() {
            map.insert(hash(i as u32), &vec![i as u8; size]);
        }
        map.remove(&hash(0));
        map.insert(hash(1), &[9; 400]);
        for (i, &size) in sizes.iter().enumerate().skip(2) {
            assert_eq!(map.get(&hash(i as u32)), Some(&vec![i as u8; size][..]), "{size} bytes");
        }
        assert_eq!(map.get(&hash(1)), Some(&[9u8; 400][..]));
        assert_eq!(map.get(&hash(0)), None);
        let mut records = Vec::new();
        map.for_each_record(|hash, data| {
            records.extend_from_slice(hash);
            records.extend_from_slice(&(data.len() as u32).to_le_bytes());
            records.extend_from_slice(data);
        });
        let loaded = NodeMap::from_records(records, map.len()).expect("valid records");
        for i in 1..sizes.len() as u32 {
            assert_eq!(loaded.get(&hash(i)), map.get(&hash(i)), "node {i}");
        }
        let mut compacted = loaded;
        compacted.compact();
        assert_eq!(compacted.get(&hash(8)), Some(&vec![8u8; 70_000][..]));
        assert_eq!(compacted.get(&hash(4)), Some(&[4u8; 254][..]));
    }

    #[test]
    fn many_nodes_with_colliding_slots_and_tags() {
        let mut map = NodeMap::with_capacity(1);
        // Hashes that share home slot and tag, told apart by their other bytes.
        let twin = |i: u8| {
            let mut h = [0u8; 32];
            h[31] = i;
            h
        };
        for i in 0..50u8 {
            map.insert(twin(i), &[i]);
        }
        for i in 0..5000u32 {
            map.insert(hash(i), &i.to_le_bytes());
        }
        for i in (0..5000u32).step_by(3) {
            map.remove(&hash(i));
        }
        for i in (0..50u8).step_by(2) {
            map.remove(&twin(i));
        }
        for i in 0..5000u32 {
            let expected = if i % 3 == 0 { None } else { Some(i.to_le_bytes().to_vec()) };
            assert_eq!(map.get(&hash(i)).map(|b| b.to_vec()), expected, "node {i}");
        }
        for i in 0..50u8 {
            assert_eq!(map.get(&twin(i)).is_some(), i % 2 == 1);
        }
        let mut copy = NodeMap::with_capacity(4);
        let wanted: Vec<Hash> = (0..100).map(hash).collect();
        map.copy_many_into(&wanted, &mut copy);
        assert_eq!(copy.len(), 66);
        assert_eq!(copy.get(&hash(1)), Some(&1u32.to_le_bytes()[..]));
    }
}
