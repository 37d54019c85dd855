//! SMT nodes by hash, in memory: the map one operation reads from, and the native node store.

use super::codec::{decode, decode_owned, encode_branch, Node, BRANCH_NODE_LENGTH, BRANCH_TAG, LEAF_TAG};
use super::hash::{is_empty, EMPTY_HASH};
use super::store::to_hash;
use super::{Hash, SmtError};
use std::borrow::Cow;
use std::collections::HashMap;

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

/// Where a node's bytes are in the arena: (start, length). A linked branch (see `NodeMap`) has
/// no bytes of its own to hand out: its length is `LINKED_BRANCH`, and it is read with `node`;
/// nor has a compact leaf (length `COMPACT_LEAF`), read with `node` or `copy_data`.
pub type Position = (usize, usize);

/// The length in the `Position` of a linked branch.
pub const LINKED_BRANCH: usize = usize::MAX;
/// The length in the `Position` of a compact leaf (see `NodeMap`).
pub const COMPACT_LEAF: usize = usize::MAX - 1;

/// Slot values: empty, a removed entry (probing continues past it), or
/// `(record + 1) << 24 | length code << 16 | tag`, the record's offset in the arena, its data
/// length (`LONG` for data too long for the code, `LINKED` for a linked branch, `COMPACT` for a
/// compact leaf) and two bytes of its hash.
const EMPTY_SLOT: u64 = 0;
const REMOVED_SLOT: u64 = 1;
const TAG_BITS: u32 = 16;
const TAG_MASK: u64 = (1 << TAG_BITS) - 1;
const RECORD_SHIFT: u32 = 24;
const LENGTH_MASK: u64 = 0xff;
/// The length code of a record whose data length is written in the record itself.
const LONG: usize = 0xff;
/// The length code of a linked branch.
const LINKED: usize = 0xfe;
/// The length code of a compact leaf; data of this length or more is long.
const COMPACT: usize = 0xfd;
/// A leaf of this many data bytes (tag, 38-byte key, 32-byte value: every leaf of a state tree)
/// is kept compact: without its tag, and with the first `PREFIX_LENGTH` bytes of its key (the
/// store prefix of a state key: module and substore, a few dozen distinct ones in a whole tree)
/// replaced by their index in the map's prefix table, one byte.
const COMPACT_SOURCE_LENGTH: usize = 71;
const PREFIX_LENGTH: usize = 6;
/// A compact leaf's data: the prefix index, then the data after the tag and the prefix.
const COMPACT_LENGTH: usize = COMPACT_SOURCE_LENGTH - PREFIX_LENGTH;
/// Prefixes a map keeps at most (a leaf whose prefix finds the table full is kept as it is).
const MAX_PREFIXES: usize = 256;
/// A short record in the arena: the 32-byte hash, a header byte (`LINK_COUNT`: the count of
/// linked branches that point to it, `DEAD`, and its kind, so that a record reached through a
/// link is read without its slot), its length code again unless the kind says it (a linked
/// branch, a compact leaf: `LEAN_HEADER`), then the data. A long one (data of `COMPACT` bytes or
/// more, rare: only leaves with long values) has its data length (u32, little-endian) in place
/// of the header: no branch links to it. A state tree's nodes are all short and lean.
const HASH_LENGTH: usize = 32;
const LINK_COUNT: usize = 32;
const RECORD_CODE: usize = 33;
const SHORT_HEADER: usize = 34;
const LEAN_HEADER: usize = 33;
const LONG_HEADER: usize = 36;
/// Kinds in the header byte: a record with its length code after the header, a linked branch,
/// a compact leaf.
const KIND_MASK: u8 = 0x60;
const KIND_CODED: u8 = 0x00;
const KIND_LINKED: u8 = 0x20;
const KIND_COMPACT: u8 = 0x40;
/// A linked branch's data: the arena offsets of its children's records (u32 each, `NO_LINK`
/// for an empty child).
const LINKS_LENGTH: usize = 8;
pub const NO_LINK: u32 = u32::MAX;
/// In the header byte: the record was removed from the table but branches still link to it.
const DEAD: u8 = 0x80;
/// The bits of the header byte that count links. A count that has reached this stays (the
/// record is then kept for good once removed; in a pruned state tree a node has one parent).
const STUCK: u8 = 0x1f;
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
/// Removed records of at most this many bytes are kept on free lists (by size) and reused.
const MAX_REUSED_SIZE: usize = SHORT_HEADER + 128;
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
/// A state leaf (71 bytes of data) is kept compact: 65 bytes, its tag implied by its length code
/// and the six-byte store prefix of its key replaced by a one-byte index into the map's prefix
/// table (see `COMPACT_SOURCE_LENGTH`). It is rebuilt as given wherever it is read.
///
/// A branch stored by `apply_batch` whose children are already in the map is kept linked: its
/// record holds the offsets of its children's records (8 bytes) instead of their hashes (64),
/// each child's hash being stored once, in its own record. Branches are some 60% of a state
/// tree's nodes, so this takes nearly a third off the tree's memory. `node` reads a linked
/// branch's children's hashes from their records; an update follows the links down instead
/// (`find_each`), reaching each child with no slot lookup at all. A record that linked branches
/// point to counts them (saturating), and one removed while still counted stays in the arena,
/// out of the table, until the last branch linking to it goes: whatever order nodes are removed
/// in, a linked branch always reads its children's hashes.
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
    /// The slot values of removed records that linked branches still point to, by record (a
    /// handful at a time: a write set removes a node's children before the node).
    kept: HashMap<usize, u64>,
    /// The key prefixes of compact leaves, by index, and their indexes.
    prefixes: Vec<[u8; PREFIX_LENGTH]>,
    prefix_indexes: HashMap<[u8; PREFIX_LENGTH], u8>,
    /// The index `compact_index` found last.
    last_prefix: u8,
}

#[inline]
fn word(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

#[inline]
fn link_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
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

/// The children's hashes of `data` when it is a branch in its canonical encoding (the only
/// branches kept linked: anything else must read back byte for byte as it was stored).
#[inline]
fn canonical_branch(data: &[u8]) -> Option<[&[u8]; 2]> {
    if data.len() != BRANCH_NODE_LENGTH || data[0] != BRANCH_TAG {
        return None;
    }
    Some([&data[1..33], &data[33..65]])
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
            kept: HashMap::new(),
            prefixes: Vec::new(),
            prefix_indexes: HashMap::new(),
            last_prefix: 0,
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
        match length_code(slot) {
            LONG => {
                let length = link_at(&self.arena, record + 32) as usize;
                (record + LONG_HEADER, length)
            }
            LINKED => (record + LEAN_HEADER, LINKED_BRANCH),
            COMPACT => (record + LEAN_HEADER, COMPACT_LEAF),
            code => (record + SHORT_HEADER, code),
        }
    }

    /// Arena bytes of the record a slot value points to.
    #[inline]
    fn record_bytes(&self, slot: u64) -> usize {
        match length_code(slot) {
            LONG => LONG_HEADER + link_at(&self.arena, record_of(slot) + 32) as usize,
            LINKED => LEAN_HEADER + LINKS_LENGTH,
            COMPACT => LEAN_HEADER + COMPACT_LENGTH,
            code => SHORT_HEADER + code,
        }
    }

    pub fn contains(&self, hash: &Hash) -> bool {
        self.find_slot(hash).is_some()
    }

    #[inline]
    pub fn position(&self, hash: &Hash) -> Option<Position> {
        self.find_slot(hash).map(|index| self.record_position(self.slots[index]))
    }

    /// The data at `position`, which must be neither a linked branch nor a compact leaf (see
    /// `node`, `copy_data`).
    #[inline]
    pub fn bytes(&self, (start, length): Position) -> &[u8] {
        debug_assert!(length < COMPACT_LEAF, "a linked branch or a compact leaf has no bytes of its own");
        &self.arena[start..start + length]
    }

    /// True when `position` is a node whose data is stored as it was given (`bytes` reads it).
    #[inline]
    fn is_plain(position: Position) -> bool {
        position.1 < COMPACT_LEAF
    }

    /// Appends the data of the compact leaf whose record data starts at `start`, as it was given.
    #[inline]
    fn expand_leaf(&self, start: usize, out: &mut Vec<u8>) {
        out.push(LEAF_TAG);
        out.extend_from_slice(&self.prefixes[self.arena[start] as usize]);
        out.extend_from_slice(&self.arena[start + 1..start + COMPACT_LENGTH]);
    }

    /// The prefix index a leaf with `data` is kept compact under, if it is kept compact (the
    /// prefix is added to the table if new and there is room).
    #[inline]
    fn compact_index(&mut self, data: &[u8]) -> Option<u8> {
        if data.len() != COMPACT_SOURCE_LENGTH || data[0] != LEAF_TAG {
            return None;
        }
        let prefix: [u8; PREFIX_LENGTH] = data[1..1 + PREFIX_LENGTH].try_into().expect("prefix bytes");
        // Most of a tree's leaves share one prefix (a block's writes come sorted by key, so
        // prefix by prefix): the last one found is tried before the hash map.
        if self.prefixes.get(self.last_prefix as usize) == Some(&prefix) {
            return Some(self.last_prefix);
        }
        if let Some(&index) = self.prefix_indexes.get(&prefix) {
            self.last_prefix = index;
            return Some(index);
        }
        if self.prefixes.len() == MAX_PREFIXES {
            return None;
        }
        let index = self.prefixes.len() as u8;
        self.prefixes.push(prefix);
        self.prefix_indexes.insert(prefix, index);
        Some(index)
    }

    /// Writes a compact leaf's data (index, then `data` after its tag and prefix) at `at`.
    #[inline]
    fn write_compact(arena: &mut [u8], at: usize, index: u8, data: &[u8]) {
        arena[at] = index;
        arena[at + 1..at + COMPACT_LENGTH].copy_from_slice(&data[1 + PREFIX_LENGTH..]);
    }

    /// The hash of the child a link points to.
    #[inline]
    fn linked_hash(&self, link: u32) -> Hash {
        if link == NO_LINK {
            return EMPTY_HASH;
        }
        to_hash(&self.arena[link as usize..link as usize + HASH_LENGTH])
    }

    /// The child links of the linked branch whose data starts at `start`.
    #[inline]
    fn links(&self, start: usize) -> [u32; 2] {
        [link_at(&self.arena, start), link_at(&self.arena, start + 4)]
    }

    /// The node at `position` decoded (see codec.rs `decode`), linked branches included.
    #[inline]
    pub fn node(&self, position: Position, key_length: usize) -> Option<Node<'_>> {
        match position.1 {
            LINKED_BRANCH => {
                let [left, right] = self.links(position.0);
                Some(Node::Branch { left: self.linked_hash(left), right: self.linked_hash(right) })
            }
            COMPACT_LEAF => {
                let mut data = Vec::with_capacity(COMPACT_SOURCE_LENGTH);
                self.expand_leaf(position.0, &mut data);
                decode_owned(data, key_length)
            }
            _ => decode(self.bytes(position), key_length),
        }
    }

    /// True when the node at `position` is stored with the leaf tag.
    #[inline]
    pub fn is_leaf(&self, position: Position) -> bool {
        match position.1 {
            LINKED_BRANCH => false,
            COMPACT_LEAF => true,
            _ => self.bytes(position).first() == Some(&LEAF_TAG),
        }
    }

    /// Appends the node's data at `position` to `out`, as it was stored.
    #[inline]
    pub fn copy_data(&self, position: Position, out: &mut Vec<u8>) {
        match position.1 {
            LINKED_BRANCH => {
                let [left, right] = self.links(position.0);
                encode_branch(out, &self.linked_hash(left), &self.linked_hash(right));
            }
            COMPACT_LEAF => self.expand_leaf(position.0, out),
            _ => out.extend_from_slice(self.bytes(position)),
        }
    }

    /// The data stored under `hash` (borrowed, or rebuilt for a linked branch or a compact leaf).
    pub fn get(&self, hash: &Hash) -> Option<Cow<'_, [u8]>> {
        let position = self.position(hash)?;
        if Self::is_plain(position) {
            return Some(Cow::Borrowed(self.bytes(position)));
        }
        let mut data = Vec::with_capacity(COMPACT_SOURCE_LENGTH);
        self.copy_data(position, &mut data);
        Some(Cow::Owned(data))
    }

    /// True when the record a slot value points to holds exactly `data`.
    fn holds(&self, slot: u64, data: &[u8]) -> bool {
        let position = self.record_position(slot);
        match position.1 {
            LINKED_BRANCH => {
                let [left, right] = self.links(position.0);
                canonical_branch(data).is_some_and(|[l, r]| self.linked_hash(left) == l && self.linked_hash(right) == r)
            }
            COMPACT_LEAF => {
                let start = position.0;
                data.len() == COMPACT_SOURCE_LENGTH
                    && data[0] == LEAF_TAG
                    && data[1..1 + PREFIX_LENGTH] == self.prefixes[self.arena[start] as usize]
                    && data[1 + PREFIX_LENGTH..] == self.arena[start + 1..start + COMPACT_LENGTH]
            }
            _ => self.bytes(position) == data,
        }
    }

    /// Keeps a copy of `data` under `hash`, replacing any node stored under that hash.
    pub fn insert(&mut self, hash: Hash, data: &[u8]) {
        self.store(hash, data);
    }

    /// `insert`, returning the slot value now under `hash` and whether it replaced a record.
    fn store(&mut self, hash: Hash, data: &[u8]) -> (u64, bool) {
        if let Some(index) = self.find_slot(&hash) {
            let old = self.slots[index];
            if self.holds(old, data) {
                return (old, false);
            }
            let slot = self.append_record(&hash, data);
            self.slots[index] = slot;
            self.retire(old);
            return (slot, true);
        }
        let slot = self.append_record(&hash, data);
        self.place(&hash, slot);
        (slot, false)
    }

    /// Like `insert`, but a canonical branch whose children are in the map is kept linked.
    /// `unlinked` holds the nodes stored before by the same write set that no branch links to
    /// yet, most recent last: a write set lists a new branch right after its new children's
    /// subtrees, right child last, so a new child is nearly always found there without a lookup
    /// in the table (only untouched siblings are looked up).
    fn insert_linking(&mut self, hash: Hash, data: &[u8], unlinked: &mut Vec<(Hash, u64)>) {
        let Some(links) = self.links_for(data, unlinked) else {
            let (slot, replaced) = self.store(hash, data);
            return self.note_unlinked(hash, slot, replaced, unlinked);
        };
        let existing = self.find_slot(&hash);
        if let Some(index) = existing {
            if self.holds(self.slots[index], data) {
                let slot = self.slots[index];
                return self.note_unlinked(hash, slot, false, unlinked);
            }
        }
        // Counted before the replaced record lets go of its own children (they may be the same).
        for link in links {
            self.count_link(link);
        }
        let slot = self.append_linked(&hash, links);
        match existing {
            Some(index) => {
                let old = std::mem::replace(&mut self.slots[index], slot);
                self.retire(old);
                self.note_unlinked(hash, slot, true, unlinked);
            }
            None => {
                self.place(&hash, slot);
                self.note_unlinked(hash, slot, false, unlinked);
            }
        }
    }

    /// Pushes a stored node onto `unlinked`. A write that replaced a record may have freed one
    /// that `unlinked` names: the list is then dropped (the table still has every node).
    #[inline]
    fn note_unlinked(&self, hash: Hash, slot: u64, replaced: bool, unlinked: &mut Vec<(Hash, u64)>) {
        if replaced {
            unlinked.clear();
        }
        unlinked.push((hash, slot));
    }

    /// The links for a canonical branch whose children are all in the map (or empty), taking
    /// the children found at the end of `unlinked` off it.
    #[inline]
    fn links_for(&self, data: &[u8], unlinked: &mut Vec<(Hash, u64)>) -> Option<[u32; 2]> {
        let children = canonical_branch(data)?;
        let mut links = [NO_LINK; 2];
        for side in [1, 0] {
            let child = to_hash(children[side]);
            if is_empty(&child) {
                continue;
            }
            let slot = match unlinked.last() {
                Some(&(last, slot)) if last == child => {
                    unlinked.pop();
                    slot
                }
                _ => self.slots[self.find_slot(&child)?],
            };
            if length_code(slot) == LONG || record_of(slot) >= NO_LINK as usize {
                return None;
            }
            links[side] = record_of(slot) as u32;
        }
        Some(links)
    }

    /// Puts a new entry for `hash` (not in the map) into the table.
    fn place(&mut self, hash: &Hash, slot: u64) {
        if (self.used + 1) * MAX_LOAD.1 > self.slots.len() * MAX_LOAD.0 {
            self.resize(table_size(self.live + 1));
        }
        let mut index = self.home(hash);
        // A removed slot could be reused, but only after checking the rest of the probe for
        // `hash`, which the caller just did: reusing the first free-or-removed slot is safe.
        while self.slots[index] > REMOVED_SLOT {
            index = next_slot(index, self.slots.len());
        }
        if self.slots[index] == EMPTY_SLOT {
            self.used += 1;
        }
        self.slots[index] = slot;
        self.live += 1;
    }

    /// A free record of `size` bytes taken off its list, if there is one.
    #[inline]
    fn reuse(&mut self, size: usize) -> Option<usize> {
        let record = *self.free.get(size).filter(|&&record| record != NO_RECORD)?;
        self.free[size] = word(&self.arena, record) as usize;
        self.garbage -= size;
        Some(record)
    }

    fn append_record(&mut self, hash: &Hash, data: &[u8]) -> u64 {
        if let Some(index) = self.compact_index(data) {
            return self.append_compact(hash, index, data);
        }
        if data.len() < COMPACT {
            let record = self.short_record(hash, data.len(), data.len());
            self.arena[record + SHORT_HEADER..record + SHORT_HEADER + data.len()].copy_from_slice(data);
            return slot_value(record, data.len(), hash);
        }
        self.reserve_arena(record_size(data.len()));
        let record = self.arena.len();
        self.arena.extend_from_slice(hash);
        self.arena.extend_from_slice(&(data.len() as u32).to_le_bytes());
        self.arena.extend_from_slice(data);
        slot_value(record, data.len(), hash)
    }

    /// Stores a leaf compact (see `COMPACT_SOURCE_LENGTH`) under prefix `index`.
    fn append_compact(&mut self, hash: &Hash, index: u8, data: &[u8]) -> u64 {
        let record = self.short_record(hash, COMPACT, COMPACT_LENGTH);
        Self::write_compact(&mut self.arena, record + LEAN_HEADER, index, data);
        ((record as u64 + 1) << RECORD_SHIFT) | ((COMPACT as u64) << TAG_BITS) | tag_of(hash)
    }

    fn append_linked(&mut self, hash: &Hash, [left, right]: [u32; 2]) -> u64 {
        let record = self.short_record(hash, LINKED, LINKS_LENGTH);
        self.arena[record + LEAN_HEADER..record + LEAN_HEADER + 4].copy_from_slice(&left.to_le_bytes());
        self.arena[record + LEAN_HEADER + 4..record + LEAN_HEADER + 8].copy_from_slice(&right.to_le_bytes());
        ((record as u64 + 1) << RECORD_SHIFT) | ((LINKED as u64) << TAG_BITS) | tag_of(hash)
    }

    /// A short record for `hash` with `length` bytes of data to be written by the caller, taken
    /// off the free list of its size or appended; its header written (length `code`).
    #[inline]
    fn short_record(&mut self, hash: &Hash, code: usize, length: usize) -> usize {
        let size = header_length(code) + length;
        let record = match self.reuse(size) {
            Some(record) => record,
            None => {
                self.reserve_arena(size);
                let record = self.arena.len();
                self.arena.resize(record + size, 0);
                record
            }
        };
        self.arena[record..record + HASH_LENGTH].copy_from_slice(hash);
        write_header(&mut self.arena, record, code);
        record
    }

    /// One more linked branch points to the record at `link`.
    #[inline]
    fn count_link(&mut self, link: u32) {
        if link != NO_LINK {
            let count = &mut self.arena[link as usize + LINK_COUNT];
            if *count & STUCK != STUCK {
                *count += 1;
            }
        }
    }

    /// One linked branch fewer points to the record at `link`; a removed record kept for the
    /// links is released with the last one.
    fn drop_link(&mut self, link: u32) {
        if link == NO_LINK {
            return;
        }
        let at = link as usize + LINK_COUNT;
        if self.arena[at] & STUCK == STUCK {
            return;
        }
        self.arena[at] -= 1;
        if self.arena[at] & (DEAD | STUCK) == DEAD {
            let slot = self.kept.remove(&(link as usize)).expect("a kept record");
            self.release(slot);
        }
    }

    /// Lets go of a record just taken out of the table. A linked branch lets go of its children
    /// at once (a record out of the table is only ever read for its hash); the record itself is
    /// released, or kept while branches link to it.
    fn retire(&mut self, slot: u64) {
        let record = record_of(slot);
        if length_code(slot) == LINKED {
            for link in self.links(record + LEAN_HEADER) {
                self.drop_link(link);
            }
        }
        if length_code(slot) != LONG && self.arena[record + LINK_COUNT] & STUCK != 0 {
            self.arena[record + LINK_COUNT] |= DEAD;
            self.kept.insert(record, slot);
            return;
        }
        self.release(slot);
    }

    /// Makes a record out of the table garbage (free-listed when short enough).
    fn release(&mut self, slot: u64) {
        let record = record_of(slot);
        let size = self.record_bytes(slot);
        self.garbage += size;
        if size <= MAX_REUSED_SIZE {
            let next = self.free[size] as u64;
            self.arena[record..record + 8].copy_from_slice(&next.to_le_bytes());
            self.free[size] = record;
        }
    }

    /// Forgets the node under `hash`, if any. Not to be called while an operation holds positions.
    pub fn remove(&mut self, hash: &Hash) {
        let Some(index) = self.find_slot(hash) else { return };
        let slot = self.slots[index];
        self.slots[index] = REMOVED_SLOT;
        self.live -= 1;
        self.retire(slot);
        if self.garbage > COMPACTION_FLOOR && self.garbage * 2 > self.arena.len() {
            self.compact();
        }
    }

    /// Removes the nodes of `hashes` (32 bytes each) and then stores `writes`, as `remove` and
    /// `insert_linking` one by one would, with the lookups pipelined as in `find_each`: in a store
    /// of millions of nodes each one is a cache miss or two, and a block's write set is some
    /// 300,000. A new branch's children are looked up too, to link it: a write set lists children
    /// before their parents, so only its untouched siblings are cold.
    pub fn apply_batch(
        &mut self,
        removed: &[u8],
        writes: impl Iterator<Item = (Hash, std::ops::Range<usize>)> + Clone,
        data: &[u8],
    ) {
        // Last first: a write set lists a node's children before the node, so this removes each
        // branch before its children, which it then no longer links to: they are released at
        // once instead of being kept aside until their parent goes.
        let removed: Vec<Hash> = removed.chunks_exact(32).rev().map(to_hash).collect();
        for (index, hash) in removed.iter().enumerate() {
            self.prefetch_ahead(removed.get(index + 2 * LOOKAHEAD), removed.get(index + LOOKAHEAD));
            if let Some(ahead) = removed.get(index + LOOKAHEAD / 2) {
                self.prefetch_children(ahead);
            }
            self.remove(hash);
        }
        let writes: Vec<(Hash, std::ops::Range<usize>)> = writes.collect();
        // One rebuild for the whole batch, if any, sized for all of it (inserts one at a time
        // would grow the table by small steps).
        if (self.used + writes.len()) * MAX_LOAD.1 > self.slots.len() * MAX_LOAD.0 {
            self.resize(table_size(self.live + writes.len()));
        }
        let mut unlinked = Vec::new();
        for (index, (hash, range)) in writes.iter().enumerate() {
            if let Some((ahead, range)) = writes.get(index + 2 * LOOKAHEAD) {
                prefetch(&self.slots[self.home(ahead)]);
                for child in canonical_branch(&data[range.clone()]).into_iter().flatten() {
                    prefetch(&self.slots[self.home(&to_hash(child))]);
                }
            }
            if let Some((ahead, _)) = writes.get(index + LOOKAHEAD) {
                self.prefetch_record(ahead);
            }
            self.insert_linking(*hash, &data[range.clone()], &mut unlinked);
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
        let mut data = Vec::with_capacity(BRANCH_NODE_LENGTH);
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
                    data.clear();
                    self.copy_data(position, &mut data);
                    into.insert(*hash, &data);
                }
            }
        }
    }

    /// Calls `found(i, hash, position)` for each item of `items`, in order: a node given by its
    /// hash (link `NO_LINK`), or through a link (`child_links`), whose hash is then read from its
    /// record. The position is None when the map does not hold the node (for a link: its record
    /// was removed from the table and is only kept for its hash). The lookups are pipelined:
    /// while item i is read, the home slot of item i + 2L (or, for a link, the record itself) and
    /// the record that item i + L's slot points to are already being fetched from memory (L =
    /// LOOKAHEAD), so that in a map much larger than the caches the misses of some 2L lookups are
    /// in flight at once, with no pause between groups. `found` sees each node right after its
    /// lookup, while its record is still in the cache. A node reached through a link costs no
    /// slot at all: one cache miss, not two.
    #[inline]
    pub fn find_each(&self, items: &[(Hash, u32)], mut found: impl FnMut(usize, &Hash, Option<Position>)) {
        let first_stage = |(hash, link): &(Hash, u32)| {
            if *link == NO_LINK {
                prefetch(&self.slots[self.home(hash)]);
            } else {
                self.prefetch_at(*link as usize);
            }
        };
        for item in items.iter().take(2 * LOOKAHEAD) {
            first_stage(item);
        }
        for (hash, link) in items.iter().take(LOOKAHEAD) {
            if *link == NO_LINK {
                self.prefetch_record(hash);
            }
        }
        for (index, (hash, link)) in items.iter().enumerate() {
            if let Some(ahead) = items.get(index + 2 * LOOKAHEAD) {
                first_stage(ahead);
            }
            if let Some((ahead, NO_LINK)) = items.get(index + LOOKAHEAD) {
                self.prefetch_record(ahead);
            }
            if *link == NO_LINK {
                found(index, hash, if self.live == 0 { None } else { self.position(hash) });
            } else {
                let (hash, position) = self.linked_record(*link);
                found(index, &hash, position);
            }
        }
    }

    /// The child links of the node at `position` when it is a linked branch (`NO_LINK` for an
    /// empty child).
    #[inline]
    pub fn child_links(&self, position: Position) -> Option<[u32; 2]> {
        (position.1 == LINKED_BRANCH).then(|| self.links(position.0))
    }

    /// The hash of the record a link points to, and its position unless it is out of the table.
    #[inline]
    fn linked_record(&self, link: u32) -> (Hash, Option<Position>) {
        let record = link as usize;
        let hash = to_hash(&self.arena[record..record + HASH_LENGTH]);
        let header = self.arena[record + LINK_COUNT];
        if header & DEAD != 0 {
            return (hash, None);
        }
        let position = match header & KIND_MASK {
            KIND_LINKED => (record + LEAN_HEADER, LINKED_BRANCH),
            KIND_COMPACT => (record + LEAN_HEADER, COMPACT_LEAF),
            _ => (record + SHORT_HEADER, self.arena[record + RECORD_CODE] as usize),
        };
        (hash, Some(position))
    }

    /// Calls `found(i, hash)` with the hash of the record each of `links` points to, the records
    /// requested LOOKAHEAD ahead.
    pub fn linked_hashes(&self, links: &[u32], mut found: impl FnMut(usize, Hash)) {
        for &link in links.iter().take(LOOKAHEAD) {
            prefetch(self.arena.as_ptr().wrapping_add(link as usize));
        }
        for (index, &link) in links.iter().enumerate() {
            if let Some(&ahead) = links.get(index + LOOKAHEAD) {
                prefetch(self.arena.as_ptr().wrapping_add(ahead as usize));
            }
            found(index, self.linked_hash(link));
        }
    }

    /// Requests the records (their first line: hash and link count) of the children of the
    /// linked branch that `hash`'s home slot points to, if it is one. Its own record should have
    /// been requested a little earlier.
    #[inline(always)]
    fn prefetch_children(&self, hash: &Hash) {
        let slot = self.slots[self.home(hash)];
        if slot > REMOVED_SLOT && length_code(slot) == LINKED {
            for link in self.links(record_of(slot) + LEAN_HEADER) {
                if link != NO_LINK {
                    prefetch(self.arena.as_ptr().wrapping_add(link as usize + LINK_COUNT));
                }
            }
        }
    }

    /// Requests the cache lines of the record at `record` (all of it, for a state leaf).
    #[inline(always)]
    fn prefetch_at(&self, record: usize) {
        let record = self.arena.as_ptr().wrapping_add(record);
        prefetch(record);
        prefetch(record.wrapping_add(64));
        prefetch(record.wrapping_add(HASH_LENGTH + 72));
    }

    /// Requests the cache lines of the record that `hash`'s home slot points to: the hash at its
    /// start and the rest of it (a state leaf is 99 bytes with its hash, a linked branch 42).
    #[inline(always)]
    fn prefetch_record(&self, hash: &Hash) {
        let slot = self.slots[self.home(hash)];
        if slot > REMOVED_SLOT {
            let record = self.arena.as_ptr().wrapping_add(record_of(slot));
            prefetch(record);
            prefetch(record.wrapping_add(LEAN_HEADER + LINKS_LENGTH - 1));
            if length_code(slot) != LINKED {
                prefetch(record.wrapping_add(64));
                prefetch(record.wrapping_add(HASH_LENGTH + 64));
            }
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
        self.kept.clear();
        self.prefixes.clear();
        self.prefix_indexes.clear();
        self.last_prefix = 0;
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

    /// Where the bytes of `arena_bytes` go: slots, used slots, live records by kind as (name,
    /// count, arena bytes), removed records kept for their links, garbage bytes, free-listed bytes.
    pub fn breakdown(&self) -> Breakdown {
        let mut records = std::collections::BTreeMap::new();
        for &slot in self.slots.iter().filter(|&&slot| slot > REMOVED_SLOT) {
            let kind = match length_code(slot) {
                LINKED => "linked branch".to_string(),
                COMPACT => "compact leaf".to_string(),
                LONG => "long record".to_string(),
                code => format!("{code}-byte data"),
            };
            let entry = records.entry(kind).or_insert((0usize, 0usize));
            entry.0 += 1;
            entry.1 += self.record_bytes(slot);
        }
        let mut free = 0;
        for (size, &first) in self.free.iter().enumerate() {
            let mut record = first;
            while record != NO_RECORD {
                free += size;
                record = word(&self.arena, record) as usize;
            }
        }
        let kept = self.kept.values().map(|&slot| self.record_bytes(slot)).sum();
        Breakdown {
            slots: self.slots.len(),
            used: self.used,
            records: records.into_iter().map(|(kind, (count, bytes))| (kind, count, bytes)).collect(),
            kept,
            garbage: self.garbage,
            free,
        }
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

    /// Calls `length(data length)` for each live node (a linked branch's as it was stored).
    pub fn for_each_length(&self, mut length: impl FnMut(usize)) {
        for &slot in self.slots.iter().filter(|&&slot| slot > REMOVED_SLOT) {
            match self.record_position(slot) {
                (_, LINKED_BRANCH) => length(BRANCH_NODE_LENGTH),
                (_, COMPACT_LEAF) => length(COMPACT_SOURCE_LENGTH),
                (_, data) => length(data),
            }
        }
    }

    /// Calls `record(hash, data)` once for each live node (see snapshot.rs), with the data as it
    /// was stored (a linked branch's rebuilt). The linked branches come after their children
    /// (the subtrees under each node no branch links to, depth first, then any node left), so
    /// that `from_records` finds a branch's children just before it and links it with no lookup.
    pub fn for_each_record(&self, mut record: impl FnMut(&[u8], &[u8])) {
        let mut data = Vec::with_capacity(BRANCH_NODE_LENGTH);
        let mut emit = |record_at: usize, position: Position| {
            let hash = &self.arena[record_at..record_at + HASH_LENGTH];
            if !Self::is_plain(position) {
                data.clear();
                self.copy_data(position, &mut data);
                record(hash, &data);
            } else {
                record(hash, self.bytes(position));
            }
        };
        // One bit per arena byte, set at the start of each record emitted.
        let mut emitted = vec![0u64; self.arena.len() / 64 + 1];
        let seen = |emitted: &[u64], at: usize| emitted[at / 64] & (1 << (at % 64)) != 0;
        let mut stack: Vec<(usize, Position, bool)> = Vec::new();
        for pass in 0..2 {
            for &slot in self.slots.iter().filter(|&&slot| slot > REMOVED_SLOT) {
                let at = record_of(slot);
                if seen(&emitted, at) || (pass == 0 && self.is_linked_to(slot)) {
                    continue;
                }
                stack.push((at, self.record_position(slot), false));
                while let Some(top) = stack.last_mut() {
                    let (at, position, expanded) = *top;
                    if !expanded && position.1 == LINKED_BRANCH {
                        top.2 = true;
                        let [left, right] = self.links(position.0);
                        for link in [right, left] {
                            let child = link as usize;
                            // A removed child, kept for its hash only, is no node of the map.
                            if link != NO_LINK && !seen(&emitted, child) && self.arena[child + LINK_COUNT] & DEAD == 0 {
                                stack.push((child, self.linked_record(link).1.expect("a live child"), false));
                            }
                        }
                        continue;
                    }
                    stack.pop();
                    if !seen(&emitted, at) {
                        emitted[at / 64] |= 1 << (at % 64);
                        emit(at, position);
                    }
                }
            }
        }
    }

    /// True when linked branches point to the record of `slot`.
    #[inline]
    fn is_linked_to(&self, slot: u64) -> bool {
        length_code(slot) != LONG && self.arena[record_of(slot) + LINK_COUNT] & STUCK != 0
    }

    /// A map over `records`, `count` of them back to back as a snapshot stores them: hash, data
    /// length (u32, little-endian), data. The buffer becomes the arena: each record is moved
    /// down over the length fields of those before it (a short record keeps two bytes of it, for
    /// its link count and length code), with nothing hashed again; the table is built from the hashes the records
    /// carry, and then the branches are linked (see `link_branches`).
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
            kept: HashMap::new(),
            prefixes: Vec::new(),
            prefix_indexes: HashMap::new(),
            last_prefix: 0,
        };
        let (mut at, mut to) = (0usize, 0usize);
        let end = map.arena.len();
        let mut unlinked = Vec::new();
        // Records in tree order land anywhere in the table: the home slot of the record some
        // LOOKAHEAD records ahead is requested before each one is placed, so that the misses
        // overlap. `ahead` walks the records as the loop will (it stops at a damaged one).
        let mut ahead = 0usize;
        for _ in 0..LOOKAHEAD {
            ahead = map.request_home_slot(ahead, end);
        }
        while at < end {
            ahead = map.request_home_slot(ahead, end);
            if end - at < LONG_HEADER {
                return Err(format!("a node record is cut short at byte {at}"));
            }
            let length = link_at(&map.arena, at + 32) as usize;
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
            // A branch written after its children (see `for_each_record`) is linked as it is
            // placed, its children taken off the end of `unlinked`.
            let links = map.links_for(&map.arena[at + LONG_HEADER..at + LONG_HEADER + length], &mut unlinked);
            // A state leaf is kept compact, as `apply_batch` keeps it (its bytes copied first: the
            // record shrinks into the space it is read from).
            let compact = if links.is_none() && length == COMPACT_SOURCE_LENGTH {
                let data: [u8; COMPACT_SOURCE_LENGTH] =
                    map.arena[at + LONG_HEADER..at + LONG_HEADER + length].try_into().expect("leaf bytes");
                map.compact_index(&data).map(|index| (index, data))
            } else {
                None
            };
            // Records only ever move down (`to` <= `at`), so the ones still to read are intact.
            let slot = if let Some(links) = links {
                map.arena.copy_within(at..at + HASH_LENGTH, to);
                write_header(&mut map.arena, to, LINKED);
                map.arena[to + LEAN_HEADER..to + LEAN_HEADER + 4].copy_from_slice(&links[0].to_le_bytes());
                map.arena[to + LEAN_HEADER + 4..to + LEAN_HEADER + 8].copy_from_slice(&links[1].to_le_bytes());
                for link in links {
                    map.count_link(link);
                }
                ((to as u64 + 1) << RECORD_SHIFT) | ((LINKED as u64) << TAG_BITS) | tag_of(&hash)
            } else if let Some((index, data)) = compact {
                map.arena.copy_within(at..at + HASH_LENGTH, to);
                write_header(&mut map.arena, to, COMPACT);
                Self::write_compact(&mut map.arena, to + LEAN_HEADER, index, &data);
                ((to as u64 + 1) << RECORD_SHIFT) | ((COMPACT as u64) << TAG_BITS) | tag_of(&hash)
            } else if length >= COMPACT {
                map.arena.copy_within(at..at + LONG_HEADER + length, to);
                slot_value(to, length, &hash)
            } else {
                map.arena.copy_within(at..at + HASH_LENGTH, to);
                write_header(&mut map.arena, to, length);
                map.arena.copy_within(at + LONG_HEADER..at + LONG_HEADER + length, to + SHORT_HEADER);
                slot_value(to, length, &hash)
            };
            let mut index = map.home(&hash);
            while map.slots[index] != EMPTY_SLOT {
                index = next_slot(index, slots);
            }
            map.slots[index] = slot;
            map.live += 1;
            unlinked.push((hash, slot));
            at += LONG_HEADER + length;
            to += map.record_bytes(slot);
        }
        if map.live != count {
            return Err(format!("{} nodes where {count} were announced", map.live));
        }
        map.arena.truncate(to);
        map.used = map.live;
        map.link_branches();
        advise_huge_pages(map.slots.as_ptr() as *const u8, map.slots.len() * std::mem::size_of::<u64>());
        advise_huge_pages(map.arena.as_ptr(), map.arena.capacity());
        Ok(map)
    }

    /// In a snapshot's records not placed yet (see `from_records`): requests the home slot of the
    /// record at `at`, if there is a whole one before `end`, and returns where the next one starts.
    #[inline]
    fn request_home_slot(&self, at: usize, end: usize) -> usize {
        if at >= end || end - at < LONG_HEADER {
            return end;
        }
        prefetch(&self.slots[home_slot(word(&self.arena, at), self.slots.len())]);
        let length = link_at(&self.arena, at + 32) as usize;
        at.saturating_add(LONG_HEADER).saturating_add(length)
    }

    /// Turns every canonical branch whose children are in the map into a linked one, in place
    /// (the record shrinks; what it leaves behind is compacted away at the end). The children are
    /// looked up a little ahead of their use, as in `find_each`.
    fn link_branches(&mut self) {
        let branches: Vec<usize> = (0..self.slots.len())
            .filter(|&index| self.slots[index] > REMOVED_SLOT && length_code(self.slots[index]) == BRANCH_NODE_LENGTH)
            .collect();
        let children = |map: &NodeMap, index: usize| -> Option<[Hash; 2]> {
            let (start, length) = map.record_position(map.slots[index]);
            canonical_branch(&map.arena[start..start + length]).map(|[left, right]| [to_hash(left), to_hash(right)])
        };
        let mut shrunk = 0;
        for (at, &index) in branches.iter().enumerate() {
            if let Some(&ahead) = branches.get(at + 2 * LOOKAHEAD) {
                prefetch(self.arena.as_ptr().wrapping_add(record_of(self.slots[ahead]) + SHORT_HEADER));
            }
            if let Some(pair) = branches.get(at + LOOKAHEAD).and_then(|&ahead| children(self, ahead)) {
                for child in &pair {
                    prefetch(&self.slots[self.home(child)]);
                }
            }
            if let Some(pair) = branches.get(at + LOOKAHEAD / 2).and_then(|&ahead| children(self, ahead)) {
                for child in &pair {
                    self.prefetch_record(child);
                }
            }
            let slot = self.slots[index];
            let (start, length) = self.record_position(slot);
            let Some(links) = self.links_for(&self.arena[start..start + length], &mut Vec::new()) else { continue };
            for link in links {
                self.count_link(link);
            }
            // The record shrinks in place: a lean header (its link count kept), then the links.
            let record = record_of(slot);
            self.arena[record + LINK_COUNT] = (self.arena[record + LINK_COUNT] & STUCK) | KIND_LINKED;
            let at = record + LEAN_HEADER;
            self.arena[at..at + 4].copy_from_slice(&links[0].to_le_bytes());
            self.arena[at + 4..at + 8].copy_from_slice(&links[1].to_le_bytes());
            self.slots[index] = (slot & !(LENGTH_MASK << TAG_BITS)) | ((LINKED as u64) << TAG_BITS);
            shrunk += 1;
        }
        if shrunk > 0 {
            self.garbage += shrunk * (SHORT_HEADER + BRANCH_NODE_LENGTH - LEAN_HEADER - LINKS_LENGTH);
            self.compact();
        }
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

    /// Copies the live records (and the removed ones still linked to) into a fresh arena and
    /// rebuilds the table around them. Each moved record leaves its new offset in its old place,
    /// which is what the links are then rewritten through.
    fn compact(&mut self) {
        let mut arena = arena_with_capacity((self.arena.len() - self.garbage) * 5 / 4);
        let mut linked = Vec::new();
        // A kept record is only read for its hash: its own links, let go of, are not rewritten.
        let mut move_record = |old: &mut Vec<u8>, slot: u64, size: usize, live: bool| -> u64 {
            let record = record_of(slot);
            let moved = arena.len();
            arena.extend_from_slice(&old[record..record + size]);
            old[record..record + 8].copy_from_slice(&(moved as u64).to_le_bytes());
            if live && length_code(slot) == LINKED {
                linked.push(moved + LEAN_HEADER);
            }
            ((moved as u64 + 1) << RECORD_SHIFT) | (slot & ((1 << RECORD_SHIFT) - 1))
        };
        for index in 0..self.slots.len() {
            let slot = self.slots[index];
            if slot > REMOVED_SLOT {
                let size = self.record_bytes(slot);
                self.slots[index] = move_record(&mut self.arena, slot, size, true);
            }
        }
        let kept: Vec<u64> = self.kept.drain().map(|(_, slot)| slot).collect();
        for slot in kept {
            let size = self.record_bytes(slot);
            let moved = move_record(&mut self.arena, slot, size, false);
            self.kept.insert(record_of(moved), moved);
        }
        for &start in &linked {
            for at in [start, start + 4] {
                let link = link_at(&arena, at);
                if link != NO_LINK {
                    let moved = word(&self.arena, link as usize) as u32;
                    arena[at..at + 4].copy_from_slice(&moved.to_le_bytes());
                }
            }
        }
        self.arena = arena;
        self.garbage = 0;
        self.free.fill(NO_RECORD);
        let slots = self.slots.len();
        self.resize(slots);
    }
}

/// Where the bytes of a map go (see `NodeMap::breakdown`).
pub struct Breakdown {
    pub slots: usize,
    pub used: usize,
    /// (kind, count, arena bytes) of the live records.
    pub records: Vec<(String, usize, usize)>,
    pub kept: usize,
    pub garbage: usize,
    pub free: usize,
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
fn length_code(slot: u64) -> usize {
    ((slot >> TAG_BITS) & LENGTH_MASK) as usize
}

/// The slot value of an unlinked record with `length` bytes of data.
#[inline(always)]
fn slot_value(record: usize, length: usize, hash: &Hash) -> u64 {
    let code = if length >= COMPACT { LONG } else { length };
    ((record as u64 + 1) << RECORD_SHIFT) | ((code as u64) << TAG_BITS) | tag_of(hash)
}

/// Arena bytes of a record with its length code, holding `length` bytes of data.
#[inline(always)]
fn record_size(length: usize) -> usize {
    length + if length >= COMPACT { LONG_HEADER } else { SHORT_HEADER }
}

/// Bytes before the data of a short record with length code `code`.
#[inline(always)]
fn header_length(code: usize) -> usize {
    if code == LINKED || code == COMPACT {
        LEAN_HEADER
    } else {
        SHORT_HEADER
    }
}

/// Writes the header of a new short record (no link to it yet) with length code `code` at `record`.
#[inline(always)]
fn write_header(arena: &mut [u8], record: usize, code: usize) {
    match code {
        LINKED => arena[record + LINK_COUNT] = KIND_LINKED,
        COMPACT => arena[record + LINK_COUNT] = KIND_COMPACT,
        _ => {
            arena[record + LINK_COUNT] = KIND_CODED;
            arena[record + RECORD_CODE] = code as u8;
        }
    }
}

fn no_free_records() -> Vec<usize> {
    vec![NO_RECORD; MAX_REUSED_SIZE + 1]
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
        let sizes = [0usize, 1, 65, 128, 253, 254, 255, 256, 300, 70_000];
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
        let loaded = NodeMap::from_records(snapshot_records(&map), map.len()).expect("valid records");
        for i in 1..sizes.len() as u32 {
            assert_eq!(loaded.get(&hash(i)).as_deref(), map.get(&hash(i)).as_deref(), "node {i}");
        }
        let mut compacted = loaded;
        compacted.compact();
        assert_eq!(compacted.get(&hash(9)).as_deref(), Some(&vec![9u8; 70_000][..]));
        assert_eq!(compacted.get(&hash(5)).as_deref(), Some(&[5u8; 254][..]));
        assert_eq!(compacted.get(&hash(4)).as_deref(), Some(&[4u8; 253][..]));
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

    /// The map's records as a snapshot file holds them (see `from_records`).
    fn snapshot_records(map: &NodeMap) -> Vec<u8> {
        let mut records = Vec::new();
        map.for_each_record(|hash, data| {
            records.extend_from_slice(hash);
            records.extend_from_slice(&(data.len() as u32).to_le_bytes());
            records.extend_from_slice(data);
        });
        records
    }

    fn leaf_data(i: u32) -> Vec<u8> {
        let mut data = Vec::new();
        crate::smt::codec::encode_leaf(&mut data, &[i as u8; 38], &hash(i));
        data
    }

    fn branch_data(left: &Hash, right: &Hash) -> Vec<u8> {
        let mut data = Vec::new();
        encode_branch(&mut data, left, right);
        data
    }

    fn linked_count(map: &NodeMap) -> usize {
        map.breakdown().records.iter().filter(|(kind, _, _)| kind == "linked branch").map(|(_, count, _)| *count).sum()
    }

    /// Writes `nodes` (hash, data) through `apply_batch`, as a store applies a write set.
    fn apply(map: &mut NodeMap, removed: &[Hash], nodes: &[(Hash, Vec<u8>)]) {
        let data: Vec<u8> = nodes.iter().flat_map(|(_, bytes)| bytes.clone()).collect();
        let mut end = 0;
        let writes: Vec<(Hash, std::ops::Range<usize>)> = nodes
            .iter()
            .map(|(h, bytes)| {
                end += bytes.len();
                (*h, end - bytes.len()..end)
            })
            .collect();
        map.apply_batch(&removed.concat(), writes.into_iter(), &data);
    }

    #[test]
    fn linked_branches_read_back_whatever_order_nodes_go_in() {
        let mut map = NodeMap::with_capacity(4);
        let [l0, l1, l2, b01, b2, root] = [hash(1000), hash(1001), hash(1002), hash(2001), hash(2002), hash(3000)];
        let nodes = vec![
            (l0, leaf_data(0)),
            (l1, leaf_data(1)),
            (l2, leaf_data(2)),
            (b01, branch_data(&l0, &l1)),
            (b2, branch_data(&l2, &EMPTY_HASH)),
            (root, branch_data(&b01, &b2)),
            // A child not in the map, and a branch that is not in canonical form: stored as given.
            (hash(4000), branch_data(&hash(9), &l0)),
            (hash(4001), [&[7u8][..], &[1u8; 64][..]].concat()),
        ];
        apply(&mut map, &[], &nodes);
        assert_eq!(linked_count(&map), 3);
        for (h, data) in &nodes {
            assert_eq!(map.get(h).as_deref(), Some(&data[..]));
        }
        let position = map.position(&b2).expect("stored");
        assert!(
            matches!(map.node(position, 38), Some(Node::Branch { left, right }) if left == l2 && right == EMPTY_HASH)
        );
        assert!(!map.is_leaf(position));
        assert!(map.is_leaf(map.position(&l2).expect("stored")));

        // A child removed while its parent stays: the parent still reads the child's hash, even
        // once removed records of the same size have been reused.
        map.remove(&l0);
        map.remove(&l2);
        assert_eq!(map.get(&l0).as_deref(), None);
        assert!(map.breakdown().kept > 0);
        for i in 10..20 {
            map.insert(hash(5000 + i), &leaf_data(i));
        }
        assert_eq!(map.get(&b01).as_deref(), Some(&branch_data(&l0, &l1)[..]));
        assert_eq!(map.get(&b2).as_deref(), Some(&branch_data(&l2, &EMPTY_HASH)[..]));
        // The same node stored again, and another branch over it.
        map.insert(l0, &leaf_data(0));
        apply(&mut map, &[], &[(hash(4002), branch_data(&l0, &b2))]);
        assert_eq!(linked_count(&map), 4);

        // Data replaced under a hash (a JavaScript caller may do that): the new data is read.
        map.insert(b2, &branch_data(&l1, &l1));
        assert_eq!(map.get(&b2).as_deref(), Some(&branch_data(&l1, &l1)[..]));
        assert_eq!(map.get(&hash(4002)).as_deref(), Some(&branch_data(&l0, &b2)[..]));

        // Parents removed before and after their children: nothing kept once none links.
        apply(&mut map, &[root, b01, l1, hash(4002), b2], &[]);
        assert_eq!(map.breakdown().kept, 0);
        assert_eq!(map.get(&hash(4000)).as_deref(), Some(&branch_data(&hash(9), &l0)[..]));
    }

    /// A state leaf's data (tag, 38-byte key, 32-byte value) under store prefix `prefix`.
    fn state_leaf(prefix: u32, i: u32) -> Vec<u8> {
        let mut key = [0u8; 38];
        key[..4].copy_from_slice(&prefix.to_be_bytes());
        key[6..].copy_from_slice(&hash(i));
        let mut data = Vec::new();
        crate::smt::codec::encode_leaf(&mut data, &key, &hash(i + 1));
        data
    }

    #[test]
    fn state_leaves_are_kept_compact_and_read_back_as_given() {
        let mut map = NodeMap::with_capacity(4);
        // More prefixes than the table takes: the leaves past it are kept as they are.
        let nodes: Vec<(Hash, Vec<u8>)> = (0..300u32)
            .map(|i| (hash(100_000 + i), state_leaf(i, i)))
            .chain((0..50).map(|i| (hash(200_000 + i), state_leaf(7, 1000 + i))))
            .collect();
        apply(&mut map, &[], &nodes);
        let kinds = map.breakdown().records;
        let count =
            |name: &str| kinds.iter().filter(|(kind, _, _)| kind == name).map(|(_, count, _)| *count).sum::<usize>();
        assert_eq!(count("compact leaf"), MAX_PREFIXES + 50);
        assert_eq!(count("71-byte data"), 300 - MAX_PREFIXES);
        for (h, data) in &nodes {
            assert_eq!(map.get(h).as_deref(), Some(&data[..]));
            let position = map.position(h).expect("stored");
            assert!(map.is_leaf(position));
            let node = map.node(position, 38).expect("a leaf");
            assert_eq!(node.leaf_parts(), Some((&data[1..39], &data[39..])));
            let mut copy = Vec::new();
            map.copy_data(position, &mut copy);
            assert_eq!(copy, *data);
        }
        // The same data again changes nothing; other data under the same hash replaces it, and a
        // removed leaf's record is taken by the next compact one.
        let arena = map.arena.len();
        map.insert(nodes[3].0, &nodes[3].1);
        assert_eq!(map.arena.len(), arena);
        map.insert(nodes[3].0, &state_leaf(3, 77));
        assert_eq!(map.get(&nodes[3].0).as_deref(), Some(&state_leaf(3, 77)[..]));
        map.remove(&nodes[4].0);
        let grown = map.arena.len();
        map.insert(hash(300_000), &state_leaf(4, 5));
        assert_eq!(map.arena.len(), grown, "the removed record was reused");
        assert_eq!(map.get(&hash(300_000)).as_deref(), Some(&state_leaf(4, 5)[..]));
        // A branch over two compact leaves links to them; a snapshot's records read back the same.
        let branch = (hash(400_000), branch_data(&nodes[0].0, &nodes[1].0));
        apply(&mut map, &[], std::slice::from_ref(&branch));
        assert_eq!(map.get(&branch.0).as_deref(), Some(&branch.1[..]));
        assert!(map.child_links(map.position(&branch.0).expect("stored")).is_some());
        let loaded = NodeMap::from_records(snapshot_records(&map), map.len()).expect("valid records");
        assert_eq!(loaded.breakdown().records, map.breakdown().records);
        let mut all = nodes.clone();
        all.push(branch);
        for (h, _) in &all {
            assert_eq!(loaded.get(h).as_deref(), map.get(h).as_deref());
        }
    }

    #[test]
    fn a_child_linked_more_often_than_counted_stays_readable() {
        let mut map = NodeMap::with_capacity(4);
        // A compact leaf and a coded one, each under 40 branches (the count stops at STUCK).
        let (compact, coded) = ((hash(1), state_leaf(1, 1)), (hash(2), leaf_data(2)));
        // Children first, as a write set lists them.
        let mut ordered = vec![compact.clone(), coded.clone()];
        ordered.extend((0..40u32).map(|i| (hash(20_000 + i), leaf_data(100 + i))));
        for i in 0..40u32 {
            ordered.push((hash(10_000 + i), branch_data(&compact.0, &hash(20_000 + i))));
            ordered.push((hash(30_000 + i), branch_data(&hash(20_000 + i), &coded.0)));
        }
        apply(&mut map, &[], &ordered);
        assert_eq!(linked_count(&map), 80);
        map.remove(&compact.0);
        map.remove(&coded.0);
        for i in 0..40u32 {
            let left = map.position(&hash(10_000 + i)).expect("stored");
            let right = map.position(&hash(30_000 + i)).expect("stored");
            map.find_each(
                &[
                    (hash(0), map.child_links(left).expect("linked")[0]),
                    (hash(0), map.child_links(right).expect("linked")[1]),
                ],
                |index, child, position| {
                    assert_eq!(*child, [compact.0, coded.0][index]);
                    assert!(position.is_none(), "removed from the table, kept for its hash");
                },
            );
            assert_eq!(map.get(&hash(10_000 + i)).as_deref(), Some(&branch_data(&compact.0, &hash(20_000 + i))[..]));
        }
        // Removing every branch leaves the two records kept for good (their counts were stuck).
        for i in 0..40u32 {
            map.remove(&hash(10_000 + i));
            map.remove(&hash(30_000 + i));
        }
        assert!(map.breakdown().kept > 0);
        map.insert(compact.0, &compact.1);
        assert_eq!(map.get(&compact.0).as_deref(), Some(&compact.1[..]));
    }

    #[test]
    fn links_survive_compaction_and_snapshot_records() {
        let mut map = NodeMap::with_capacity(4);
        let mut nodes = Vec::new();
        let mut level: Vec<Hash> = (0..64).map(|i| hash(10_000 + i)).collect();
        for (i, h) in level.iter().enumerate() {
            nodes.push((*h, leaf_data(i as u32)));
        }
        let mut next_id = 20_000;
        while level.len() > 1 {
            let mut parents = Vec::new();
            for pair in level.chunks(2) {
                let parent = hash(next_id);
                next_id += 1;
                nodes.push((parent, branch_data(&pair[0], &pair[1])));
                parents.push(parent);
            }
            level = parents;
        }
        apply(&mut map, &[], &nodes);
        assert_eq!(linked_count(&map), 63);
        // A removed child still linked to, then a compaction (two megabytes of garbage).
        map.remove(&hash(10_005));
        let big = vec![3u8; COMPACTION_FLOOR * 2];
        map.insert(hash(1), &big);
        map.remove(&hash(1));
        assert!(map.arena.len() < 64 * 200, "compacted");
        for (h, data) in nodes.iter().filter(|(h, _)| *h != hash(10_005)) {
            assert_eq!(map.get(h).as_deref(), Some(&data[..]));
        }
        let loaded = NodeMap::from_records(snapshot_records(&map), map.len()).expect("valid records");
        // The branch over the removed leaf cannot be linked from the records alone.
        assert_eq!(linked_count(&loaded), 62);
        for (h, data) in nodes.iter().filter(|(h, _)| *h != hash(10_005)) {
            assert_eq!(loaded.get(h).as_deref(), Some(&data[..]));
        }
    }
}
