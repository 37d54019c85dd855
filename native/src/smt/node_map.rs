//! SMT nodes by hash, in memory: the map one operation reads from, and the native node store.

use super::codec::{BRANCH_NODE_LENGTH, BRANCH_TAG};
use super::hash::{is_empty, EMPTY_HASH};
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

/// Where a node's bytes are in the arena: (start, length), or (start, `BY_RECORD`) for a branch
/// kept as its children's records (see `NodeMap`).
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
/// The length code of a branch kept as its children's records.
const BRANCH_BY_RECORD: usize = 0xfe;
/// A record in the arena: the 32-byte hash, then the data; a long one (data of `BRANCH_BY_RECORD`
/// bytes or more, rare: only leaves with long values) has its data length (u32, little-endian)
/// between the two. A state tree's nodes are all short: their length lives in the slot.
const HASH_LENGTH: usize = 32;
const LONG_HEADER: usize = 36;
/// A branch by record: its hash, then the arena offsets (u32, little-endian) of its left and
/// right children's records, `NO_CHILD` for an empty child.
const BY_RECORD_SIZE: usize = 40;
const NO_CHILD: u32 = u32::MAX;
/// The length in the position of a branch by record.
const BY_RECORD: usize = usize::MAX;
/// A table is rebuilt once this share of its slots is taken (removed entries included)...
const MAX_LOAD: (usize, usize) = (3, 4);
/// ...with enough slots that its live entries fill this share of them (linear probing stays
/// short well below the limit, and a table of millions of nodes is not twice the size it needs).
const REBUILT_LOAD: (usize, usize) = (3, 5);
/// Below this arena size garbage is not worth a compaction.
const COMPACTION_FLOOR: usize = 1 << 20;
/// Lookups in flight at once in `copy_many_into`.
const LOOKAHEAD: usize = 16;
/// Records of removed nodes with at most this much data are kept on free lists and reused.
const MAX_REUSED_DATA: usize = 128;
/// No record on a free list.
const NO_RECORD: usize = usize::MAX;
/// The free list of branches by record, after those by data length.
const BY_RECORD_FREE: usize = MAX_REUSED_DATA + 1;

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
///
/// In the native store (`for_store`), a branch does not repeat its children's hashes, 64 of its
/// 65 bytes: the children's records hold them, and the branch holds where those records are
/// (`BY_RECORD_SIZE` bytes with its own hash, instead of 97). Its bytes are put together again
/// when read (`NodeBytes`). A branch is kept so when both children are stored as it is inserted,
/// which the write sets of the tree's updates ensure (children come before their parent). A
/// record stays where it is as long as a branch may point to it: records are moved only by a
/// compaction, which points the branches to the moved records, and only a write set's removed
/// nodes, which no kept node refers to, are reused; a node removed by `remove` keeps its record,
/// hash intact, until the next compaction.
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
    /// Branches are kept by record (the native store).
    by_record: bool,
}

/// A node's bytes: in the arena, or put together from a branch by record and its children's
/// hashes.
pub enum NodeBytes<'a> {
    Stored(&'a [u8]),
    Branch([u8; BRANCH_NODE_LENGTH]),
}

impl std::ops::Deref for NodeBytes<'_> {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        match self {
            NodeBytes::Stored(bytes) => bytes,
            NodeBytes::Branch(bytes) => bytes,
        }
    }
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
            by_record: false,
        }
    }

    /// The native store's map: branches kept by record (see `NodeMap`).
    pub fn for_store(nodes: usize) -> NodeMap {
        NodeMap { by_record: true, ..NodeMap::with_capacity(nodes) }
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
        if code == BRANCH_BY_RECORD {
            return (record + HASH_LENGTH, BY_RECORD);
        }
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
    pub fn bytes(&self, (start, length): Position) -> NodeBytes<'_> {
        if length == BY_RECORD {
            let mut data = [0u8; BRANCH_NODE_LENGTH];
            data[0] = BRANCH_TAG;
            data[1..33].copy_from_slice(self.child_hash(start));
            data[33..65].copy_from_slice(self.child_hash(start + 4));
            return NodeBytes::Branch(data);
        }
        NodeBytes::Stored(&self.arena[start..start + length])
    }

    /// The hash of the child whose record offset is at `at` in a branch by record.
    #[inline(always)]
    fn child_hash(&self, at: usize) -> &[u8] {
        match u32::from_le_bytes(self.arena[at..at + 4].try_into().expect("4 bytes")) {
            NO_CHILD => &EMPTY_HASH,
            record => &self.arena[record as usize..record as usize + HASH_LENGTH],
        }
    }

    #[inline]
    pub fn get(&self, hash: &Hash) -> Option<NodeBytes<'_>> {
        self.position(hash).map(|position| self.bytes(position))
    }

    /// Where the record of a child `hash` is, to keep a branch by record: NO_CHILD for the empty
    /// hash, None when the child is not stored (or lies beyond what a u32 offset reaches).
    fn child_record(&self, hash: &[u8]) -> Option<u32> {
        let hash = to_hash(hash);
        if is_empty(&hash) {
            return Some(NO_CHILD);
        }
        let record = record_of(self.slots[self.find_slot(&hash)?]);
        u32::try_from(record).ok().filter(|&record| record != NO_CHILD)
    }

    /// The child records of `data` if it is to be kept as a branch by record.
    fn by_record(&self, data: &[u8]) -> Option<[u32; 2]> {
        if !self.by_record || data.len() != BRANCH_NODE_LENGTH || data[0] != BRANCH_TAG {
            return None;
        }
        Some([self.child_record(&data[1..33])?, self.child_record(&data[33..65])?])
    }

    /// Keeps a copy of `data` under `hash`, replacing any node stored under that hash.
    pub fn insert(&mut self, hash: Hash, data: &[u8]) {
        if let Some(index) = self.find_slot(&hash) {
            let position = self.record_position(self.slots[index]);
            if *self.bytes(position) == *data {
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
        if let Some(children) = self.by_record(data) {
            return self.append_by_record(hash, children);
        }
        let reusable = data.len() <= MAX_REUSED_DATA && self.free[data.len()] != NO_RECORD;
        if let Some(record) = reusable.then(|| self.free[data.len()]) {
            self.free[data.len()] = word(&self.arena, record) as usize;
            self.arena[record..record + 32].copy_from_slice(hash);
            self.arena[record + HASH_LENGTH..record + HASH_LENGTH + data.len()].copy_from_slice(data);
            self.garbage -= record_size(data.len());
            return slot_value(record, data.len(), hash);
        }
        self.reserve_arena(record_size(data.len()));
        let record = self.arena.len();
        self.arena.extend_from_slice(hash);
        if data.len() >= BRANCH_BY_RECORD {
            self.arena.extend_from_slice(&(data.len() as u32).to_le_bytes());
        }
        self.arena.extend_from_slice(data);
        slot_value(record, data.len(), hash)
    }

    fn append_by_record(&mut self, hash: &Hash, children: [u32; 2]) -> u64 {
        let mut record = [0u8; BY_RECORD_SIZE];
        record[..32].copy_from_slice(hash);
        record[32..36].copy_from_slice(&children[0].to_le_bytes());
        record[36..40].copy_from_slice(&children[1].to_le_bytes());
        let at = match self.free[BY_RECORD_FREE] {
            NO_RECORD => {
                self.reserve_arena(BY_RECORD_SIZE);
                self.arena.extend_from_slice(&record);
                self.arena.len() - BY_RECORD_SIZE
            }
            free => {
                self.free[BY_RECORD_FREE] = word(&self.arena, free) as usize;
                self.arena[free..free + BY_RECORD_SIZE].copy_from_slice(&record);
                self.garbage -= BY_RECORD_SIZE;
                free
            }
        };
        slot_value(at, BY_RECORD, hash)
    }

    /// Forgets the node under `hash`, if any. Not to be called while an operation holds positions.
    /// In the store its record is not reused before a compaction (a branch may still point to it).
    pub fn remove(&mut self, hash: &Hash) {
        self.remove_node(hash, !self.by_record);
    }

    /// Forgets the node under `hash`; with `reuse`, its record may take the next node of its size.
    fn remove_node(&mut self, hash: &Hash, reuse: bool) {
        let Some(index) = self.find_slot(hash) else { return };
        let record = record_of(self.slots[index]);
        let (_, length) = self.record_position(self.slots[index]);
        self.slots[index] = REMOVED_SLOT;
        self.live -= 1;
        self.garbage += record_size(length);
        let list = if length == BY_RECORD { BY_RECORD_FREE } else { length };
        if reuse && (length <= MAX_REUSED_DATA || length == BY_RECORD) {
            let next = self.free[list] as u64;
            self.arena[record..record + 8].copy_from_slice(&next.to_le_bytes());
            self.free[list] = record;
        }
        if self.garbage > COMPACTION_FLOOR && self.garbage * 2 > self.arena.len() {
            self.compact();
        }
    }

    /// Removes the nodes of `hashes` (32 bytes each) and then stores `writes`, as `remove` and
    /// `insert` one by one would, with the lookups pipelined as in `find_each`: in a store of
    /// millions of nodes each one is a cache miss or two, and a block's write set is some 300,000.
    /// The removed nodes are those no node kept refers to (a pruned write set's), so their
    /// records are reused at once.
    pub fn apply_batch(
        &mut self,
        removed: &[u8],
        writes: impl Iterator<Item = (Hash, std::ops::Range<usize>)> + Clone,
        data: &[u8],
    ) {
        let removed: Vec<Hash> = removed.chunks_exact(32).map(to_hash).collect();
        for (index, hash) in removed.iter().enumerate() {
            self.prefetch_ahead(removed.get(index + 2 * LOOKAHEAD), removed.get(index + LOOKAHEAD));
            self.remove_node(hash, true);
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
                    into.insert(*hash, &self.bytes(position));
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
            if let Some(ahead) = hashes.get(index + LOOKAHEAD / 2) {
                self.prefetch_children(ahead);
            }
            if let Some(position) = self.position(hash) {
                found(index, position, &self.bytes(position));
            }
        }
    }

    /// Requests the children's records of the branch by record that `hash`'s home slot points
    /// to (their hashes are part of the branch's bytes), once that record should have arrived.
    #[inline(always)]
    fn prefetch_children(&self, hash: &Hash) {
        let slot = self.slots[self.home(hash)];
        if slot > REMOVED_SLOT && ((slot >> TAG_BITS) & LENGTH_MASK) as usize == BRANCH_BY_RECORD {
            let record = record_of(slot) + HASH_LENGTH;
            for at in [record, record + 4] {
                let child = u32::from_le_bytes(self.arena[at..at + 4].try_into().expect("4 bytes"));
                if child != NO_CHILD {
                    prefetch(self.arena.as_ptr().wrapping_add(child as usize));
                }
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

    /// Calls `record(hash, data)` once for each live node (see snapshot.rs), a branch by record
    /// after the nodes below it, each subtree's root right after its last node: the order in which
    /// `from_records` finds a branch's children on top of its stack, with no lookup.
    pub fn for_each_record(&self, mut record: impl FnMut(&[u8], &[u8])) {
        // Records a branch by record points to (by arena offset), and records given already.
        let bits = self.arena.len() / 64 + 1;
        let (mut referenced, mut given) = (vec![0u64; bits], vec![0u64; bits]);
        let test = |bits: &[u64], at: usize| bits[at / 64] & (1 << (at % 64)) != 0;
        let set = |bits: &mut [u64], at: usize| bits[at / 64] |= 1 << (at % 64);
        for &slot in self.slots.iter().filter(|&&slot| slot > REMOVED_SLOT) {
            if let Some(children) = self.children_of(slot) {
                for child in children.into_iter().filter(|&child| child != NO_CHILD) {
                    set(&mut referenced, child as usize);
                }
            }
        }
        // (slot, children pushed already)
        let mut stack: Vec<(u64, bool)> = Vec::new();
        for &root in self.slots.iter().filter(|&&slot| slot > REMOVED_SLOT && !test(&referenced, record_of(slot))) {
            stack.push((root, false));
            while let Some((slot, expanded)) = stack.pop() {
                let at = record_of(slot);
                if test(&given, at) {
                    continue;
                }
                if let Some([left, right]) = self.children_of(slot).filter(|_| !expanded) {
                    stack.push((slot, true));
                    for child in [right, left].into_iter().filter(|&child| child != NO_CHILD) {
                        let hash = to_hash(&self.arena[child as usize..child as usize + HASH_LENGTH]);
                        if let Some(index) = self.find_slot(&hash) {
                            stack.push((self.slots[index], false));
                        }
                    }
                    continue;
                }
                set(&mut given, at);
                record(&self.arena[at..at + HASH_LENGTH], &self.bytes(self.record_position(slot)));
            }
        }
    }

    /// Bytes of the data `for_each_record` gives, all nodes together.
    pub fn data_length(&self) -> usize {
        let data = |slot: u64| match self.record_position(slot).1 {
            BY_RECORD => BRANCH_NODE_LENGTH,
            length => length,
        };
        self.slots.iter().filter(|&&slot| slot > REMOVED_SLOT).map(|&slot| data(slot)).sum()
    }

    /// The child records of the branch by record in `slot`, if it is one.
    fn children_of(&self, slot: u64) -> Option<[u32; 2]> {
        if ((slot >> TAG_BITS) & LENGTH_MASK) as usize != BRANCH_BY_RECORD {
            return None;
        }
        let at = record_of(slot) + HASH_LENGTH;
        let child = |at: usize| u32::from_le_bytes(self.arena[at..at + 4].try_into().expect("4 bytes"));
        Some([child(at), child(at + 4)])
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
            by_record: true,
        };
        let (mut at, mut to) = (0usize, 0usize);
        let end = map.arena.len();
        // The roots of the subtrees read so far, last on top: (hash, record). A branch's
        // children are on top in the order `for_each_record` writes; otherwise they are looked
        // up, and a branch whose children come after it stays as its bytes until the end.
        let mut subtrees: Vec<(Hash, u32)> = Vec::new();
        let mut later = false;
        // Records in tree order have their home slots all over the table: the slots of the
        // records some way ahead are requested early, so that the misses overlap.
        let mut ahead = 0usize;
        let mut ahead_count = 0usize;
        while at < end {
            while ahead_count < map.live + 2 * LOOKAHEAD && ahead + LONG_HEADER <= end {
                let length = u32::from_le_bytes(map.arena[ahead + 32..ahead + 36].try_into().expect("4 bytes"));
                prefetch(&map.slots[home_slot(word(&map.arena, ahead), slots)]);
                ahead = ahead.saturating_add(LONG_HEADER + length as usize);
                ahead_count += 1;
            }
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
            let data = &map.arena[at + LONG_HEADER..at + LONG_HEADER + length];
            let children = map.loaded_children(data, &mut subtrees, to);
            later |= children.is_none() && length == BRANCH_NODE_LENGTH && data[0] == BRANCH_TAG;
            // Records only ever move down (`to` <= `at`), so the ones still to read are intact.
            map.arena.copy_within(at..at + HASH_LENGTH, to);
            let size = if let Some(children) = children {
                map.arena[to + 32..to + 36].copy_from_slice(&children[0].to_le_bytes());
                map.arena[to + 36..to + 40].copy_from_slice(&children[1].to_le_bytes());
                BY_RECORD
            } else if length >= BRANCH_BY_RECORD {
                map.arena.copy_within(at + HASH_LENGTH..at + LONG_HEADER + length, to + HASH_LENGTH);
                length
            } else {
                map.arena.copy_within(at + LONG_HEADER..at + LONG_HEADER + length, to + HASH_LENGTH);
                length
            };
            let mut index = map.home(&hash);
            while map.slots[index] != EMPTY_SLOT {
                index = next_slot(index, slots);
            }
            map.slots[index] = slot_value(to, size, &hash);
            map.live += 1;
            if subtrees.len() >= 1 << 16 {
                // Not the order expected: the stack only grows.
                subtrees.clear();
            }
            subtrees.push((hash, to as u32));
            at += LONG_HEADER + length;
            to += record_size(size);
        }
        if map.live != count {
            return Err(format!("{} nodes where {count} were announced", map.live));
        }
        map.arena.truncate(to);
        map.used = map.live;
        if later {
            // Branches read before their children (a file the TypeScript store wrote): a new
            // arena with every branch by record.
            map.compact();
        }
        advise_huge_pages(map.slots.as_ptr() as *const u8, map.slots.len() * std::mem::size_of::<u64>());
        advise_huge_pages(map.arena.as_ptr(), map.arena.capacity());
        Ok(map)
    }

    /// While `from_records` reads a record with `data`, to be placed at `to`: the records of its
    /// children if it is a branch to keep by record whose children were read (popped from the top
    /// of `subtrees` when they are there, as in the order `for_each_record` writes).
    fn loaded_children(&self, data: &[u8], subtrees: &mut Vec<(Hash, u32)>, to: usize) -> Option<[u32; 2]> {
        if data.len() != BRANCH_NODE_LENGTH || data[0] != BRANCH_TAG || to + BY_RECORD_SIZE >= NO_CHILD as usize {
            return None;
        }
        let (left, right) = (&data[1..33], &data[33..65]);
        let mut children = [NO_CHILD; 2];
        let mut popped = 0;
        for (side, hash) in [(1, right), (0, left)] {
            if is_empty(&to_hash(hash)) {
                continue;
            }
            match subtrees.len().checked_sub(popped + 1).map(|top| subtrees[top]) {
                Some((root, record)) if root[..] == *hash => {
                    children[side] = record;
                    popped += 1;
                }
                _ => children[side] = self.child_record(hash)?,
            }
        }
        subtrees.truncate(subtrees.len() - popped);
        Some(children)
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

    /// Copies the live records into a fresh arena and rebuilds the table around them. In the
    /// store, every branch whose children are stored becomes (or stays) a branch by record,
    /// pointed to the children's new records; a branch whose child was removed keeps that child's
    /// hash, as its bytes, so that reading the child still reports it missing.
    fn compact(&mut self) {
        let slots = self.slots.len();
        // Where each live record goes (its new slot value), and the slots of the children of
        // each branch by record, in slot order.
        let mut moved = vec![EMPTY_SLOT; slots];
        let mut children: Vec<[usize; 2]> = Vec::new();
        let mut length = 0usize;
        // Offsets must fit a u32 (a branch whose child is gone grows back to its bytes: at most
        // a branch's size per node on top of today's arena).
        let fits = self.arena.len() + self.live * BRANCH_NODE_LENGTH < NO_CHILD as usize;
        for index in 0..slots {
            let slot = self.slots[index];
            if slot <= REMOVED_SLOT {
                continue;
            }
            let position = self.record_position(slot);
            let data = self.bytes(position);
            let mut size = data.len();
            if let Some(pair) = self.children_slots(&data).filter(|_| fits) {
                children.push(pair);
                size = BY_RECORD;
            }
            let hash = to_hash(&self.arena[record_of(slot)..record_of(slot) + HASH_LENGTH]);
            moved[index] = slot_value(length, size, &hash);
            length += record_size(size);
        }
        let mut arena = arena_with_capacity(length + length / 4);
        let mut pairs = children.into_iter();
        for (index, &slot) in moved.iter().enumerate() {
            if slot <= REMOVED_SLOT {
                continue;
            }
            let old = self.slots[index];
            arena.extend_from_slice(&self.arena[record_of(old)..record_of(old) + HASH_LENGTH]);
            if ((slot >> TAG_BITS) & LENGTH_MASK) as usize == BRANCH_BY_RECORD {
                for child in pairs.next().expect("one pair per branch by record") {
                    let offset = if child == usize::MAX { NO_CHILD } else { record_of(moved[child]) as u32 };
                    arena.extend_from_slice(&offset.to_le_bytes());
                }
                continue;
            }
            let data = self.bytes(self.record_position(old));
            if data.len() >= BRANCH_BY_RECORD {
                arena.extend_from_slice(&(data.len() as u32).to_le_bytes());
            }
            arena.extend_from_slice(&data);
        }
        self.slots = moved;
        self.arena = arena;
        self.garbage = 0;
        self.free.fill(NO_RECORD);
        self.resize(slots);
    }

    /// For a branch to keep by record: its children's slots (usize::MAX for an empty child), or
    /// None when it is no branch, the map keeps no branch so, or a child is not stored.
    fn children_slots(&self, data: &[u8]) -> Option<[usize; 2]> {
        if !self.by_record || data.len() != BRANCH_NODE_LENGTH || data[0] != BRANCH_TAG {
            return None;
        }
        let slot = |hash: &[u8]| {
            let hash = to_hash(hash);
            if is_empty(&hash) {
                Some(usize::MAX)
            } else {
                self.find_slot(&hash)
            }
        };
        Some([slot(&data[1..33])?, slot(&data[33..65])?])
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

/// The slot of a record at `record` with data of `length` bytes (BY_RECORD: a branch by record).
#[inline(always)]
fn slot_value(record: usize, length: usize, hash: &Hash) -> u64 {
    let code = match length {
        BY_RECORD => BRANCH_BY_RECORD,
        length if length >= BRANCH_BY_RECORD => LONG,
        length => length,
    };
    ((record as u64 + 1) << RECORD_SHIFT) | ((code as u64) << TAG_BITS) | tag_of(hash)
}

/// Arena bytes of a record with `length` bytes of data (BY_RECORD: a branch by record).
#[inline(always)]
fn record_size(length: usize) -> usize {
    match length {
        BY_RECORD => BY_RECORD_SIZE,
        length if length >= BRANCH_BY_RECORD => length + LONG_HEADER,
        length => length + HASH_LENGTH,
    }
}

fn no_free_records() -> Vec<usize> {
    vec![NO_RECORD; BY_RECORD_FREE + 1]
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
        assert_eq!(map.get(&hash(2)).as_deref(), Some(&b"deux"[..]));
        assert_eq!(map.len(), 2);
        map.insert(hash(3), &big);
        map.remove(&hash(1));
        map.remove(&hash(3));
        // Two megabytes of garbage out of about two: compacted.
        assert!(map.arena.len() < 100);
        assert_eq!(map.get(&hash(2)).as_deref(), Some(&b"deux"[..]));
        assert_eq!(map.get(&hash(1)).as_deref(), None);
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
                assert_eq!(map.get(h).as_deref(), Some(&bytes[..]));
            }
        }
        // A length with no free record is appended; one above the reuse bound is never free-listed.
        map.insert(hash(9999), &[1; 200]);
        map.remove(&hash(9999));
        map.insert(hash(9998), &[2; 200]);
        assert_eq!(map.arena.len(), arena + 2 * record_size(200));
        assert_eq!(map.get(&hash(9998)).as_deref(), Some(&[2u8; 200][..]));
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
            assert_eq!(map.get(&hash(i as u32)).as_deref(), Some(&vec![i as u8; size][..]), "{size} bytes");
        }
        assert_eq!(map.get(&hash(1)).as_deref(), Some(&[9u8; 400][..]));
        assert_eq!(map.get(&hash(0)).as_deref(), None);
        let mut records = Vec::new();
        map.for_each_record(|hash, data| {
            records.extend_from_slice(hash);
            records.extend_from_slice(&(data.len() as u32).to_le_bytes());
            records.extend_from_slice(data);
        });
        let loaded = NodeMap::from_records(records, map.len()).expect("valid records");
        for i in 1..sizes.len() as u32 {
            assert_eq!(loaded.get(&hash(i)).as_deref(), map.get(&hash(i)).as_deref(), "node {i}");
        }
        let mut compacted = loaded;
        compacted.compact();
        assert_eq!(compacted.get(&hash(8)).as_deref(), Some(&vec![8u8; 70_000][..]));
        assert_eq!(compacted.get(&hash(4)).as_deref(), Some(&[4u8; 254][..]));
    }

    #[test]
    fn branches_by_record_read_back_whatever_the_order_of_their_records() {
        use crate::smt::batch::SortedBatch;
        use crate::smt::hash::EMPTY_HASH;
        use crate::smt::store::{FlatWriteSet, NodeStore};
        use crate::smt::update::update;
        let keys: Vec<u8> = (0..300u32).flat_map(|i| hash(i).to_vec()).collect();
        let values: Vec<u8> = (0..300u32).flat_map(|i| hash(i + 1000).to_vec()).collect();
        let ends: Vec<usize> = (1..=300).map(|i| i * 32).collect();
        let batch = SortedBatch::new(32, &keys, &values, &ends);
        let mut store = NodeStore::new();
        let out = update(&mut StoreSource(&store.nodes), &mut NodeMap::with_capacity(16), &batch, &EMPTY_HASH).unwrap();
        let writes = FlatWriteSet {
            write_hashes: &out.write_hashes,
            write_data: &out.write_data,
            write_ends: &out.write_ends,
            removed: &out.removed,
        };
        store.apply(&writes, true);
        assert!(store.nodes.arena.len() < store.nodes.len() * 90, "branches are kept by record");
        let mut nodes: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        store.nodes.for_each_record(|hash, data| nodes.push((hash.to_vec(), data.to_vec())));
        assert_eq!(nodes.len(), store.nodes.len());
        let as_records = |nodes: &[(Vec<u8>, Vec<u8>)]| {
            let mut records = Vec::new();
            for (hash, data) in nodes {
                records.extend_from_slice(hash);
                records.extend_from_slice(&(data.len() as u32).to_le_bytes());
                records.extend_from_slice(data);
            }
            records
        };
        let in_order = NodeMap::from_records(as_records(&nodes), nodes.len()).expect("valid");
        assert_eq!(in_order.arena.len(), store.nodes.arena.len(), "no branch kept as its bytes");
        // Parents first (as the TypeScript store may write them): compacted into the same form.
        nodes.reverse();
        let reversed = NodeMap::from_records(as_records(&nodes), nodes.len()).expect("valid");
        assert_eq!(reversed.arena.len(), store.nodes.arena.len());
        for loaded in [&in_order, &reversed] {
            for (hash, data) in &nodes {
                assert_eq!(loaded.get(&to_hash(hash)).as_deref(), Some(&data[..]));
            }
        }
        // A node removed on its own leaves its parent pointing at an intact record: the parent
        // still reads as before, and the child is reported missing.
        let leaf = nodes.iter().find(|(_, data)| data[0] == 0).map(|(hash, _)| to_hash(hash)).unwrap();
        let parent = nodes.iter().find(|(_, data)| data[0] == 1 && (data[1..33] == leaf || data[33..65] == leaf)).unwrap();
        let mut store = NodeStore { nodes: reversed };
        store.nodes.remove(&leaf);
        store.nodes.insert(hash(5000), &[0; 64]);
        assert_eq!(store.nodes.get(&to_hash(&parent.0)).as_deref(), Some(&parent.1[..]));
        assert!(store.nodes.get(&leaf).is_none());
        store.nodes.compact();
        assert_eq!(store.nodes.get(&to_hash(&parent.0)).as_deref(), Some(&parent.1[..]));
        let mut given = 0;
        store.nodes.for_each_record(|_, _| given += 1);
        assert_eq!(given, store.nodes.len());
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
            assert_eq!(map.get(&hash(i)).as_deref().map(|b| b.to_vec()), expected, "node {i}");
        }
        for i in 0..50u8 {
            assert_eq!(map.get(&twin(i)).as_deref().is_some(), i % 2 == 1);
        }
        let mut copy = NodeMap::with_capacity(4);
        let wanted: Vec<Hash> = (0..100).map(hash).collect();
        map.copy_many_into(&wanted, &mut copy);
        assert_eq!(copy.len(), 66);
        assert_eq!(copy.get(&hash(1)).as_deref(), Some(&1u32.to_le_bytes()[..]));
    }
}
