//! Tree snapshots: the nodes of a `NodeMap` in one file, so that a node restarting after a clean
//! shutdown adopts its state tree as it was instead of rebuilding it from every stored value
//! (src/state/state-tree-snapshot.ts writes the same format for the TypeScript store).
//!
//! ```text
//!   magic "BSMTSNP1" | meta length u32 | node count u64 | records length u64 | meta | records | checksum
//! ```
//!
//! Integers are little-endian. `meta` is the caller's stamp (which root and which commit the
//! snapshot belongs to), opaque here. Each record is a node's hash, its data length (u32) and
//! its data; loading them is reading them into the buffer that becomes the map's arena, closing
//! up the length fields the arena does not keep, and indexing the hashes they carry: no node is
//! hashed again. The checksum is SHA-256 of everything before it; a file that fails it,
//! or that does not parse into exactly the announced nodes, is refused whole.

use super::node_map::NodeMap;
use crate::sha256::Hasher;
use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;

pub const MAGIC: &[u8; 8] = b"BSMTSNP1";
const HEADER_LENGTH: usize = 28;
const CHECKSUM_LENGTH: usize = 32;
/// A record's bytes before its data in the file: hash, data length (u32).
const RECORD_HEADER: usize = 36;
/// A stamp is a few dozen bytes; anything much larger is a damaged length field.
const MAX_META_LENGTH: usize = 1 << 16;

/// Writes every node of `map` to `path`, durably: into `<path>.tmp`, flushed to the disk, then
/// renamed over `path`, so that `path` is either the previous file or the whole new one.
pub fn write(map: &NodeMap, path: &Path, meta: &[u8]) -> io::Result<()> {
    if meta.len() > MAX_META_LENGTH {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "snapshot stamp too long"));
    }
    let mut records_length = 0u64;
    map.for_each_length(|length| records_length += (RECORD_HEADER + length) as u64);
    let mut header = Vec::with_capacity(HEADER_LENGTH + meta.len());
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&(meta.len() as u32).to_le_bytes());
    header.extend_from_slice(&(map.len() as u64).to_le_bytes());
    header.extend_from_slice(&records_length.to_le_bytes());
    header.extend_from_slice(meta);

    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = std::path::PathBuf::from(temporary);
    let file = File::create(&temporary)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let mut hasher = Hasher::new();
    hasher.update(&header);
    out.write_all(&header)?;
    let mut failure = None;
    let mut record = Vec::with_capacity(RECORD_HEADER + 256);
    map.for_each_record(|hash, data| {
        if failure.is_none() {
            record.clear();
            record.extend_from_slice(hash);
            record.extend_from_slice(&(data.len() as u32).to_le_bytes());
            record.extend_from_slice(data);
            hasher.update(&record);
            failure = out.write_all(&record).err();
        }
    });
    if let Some(error) = failure {
        return Err(error);
    }
    out.write_all(&hasher.finish())?;
    let file = out.into_inner().map_err(|error| error.into_error())?;
    file.sync_all()?;
    drop(file);
    fs::rename(&temporary, path)?;
    // The rename itself is durable once the directory is.
    if let Some(directory) = path.parent().filter(|parent| !parent.as_os_str().is_empty()) {
        File::open(directory)?.sync_all()?;
    }
    Ok(())
}

/// Why a snapshot was not loaded.
#[derive(Debug)]
pub enum LoadError {
    Io(io::Error),
    /// The file is not a whole, intact snapshot (the message says what is wrong).
    Invalid(String),
}

impl From<io::Error> for LoadError {
    fn from(error: io::Error) -> Self {
        if error.kind() == io::ErrorKind::UnexpectedEof {
            return LoadError::Invalid("the file is shorter than its header says".into());
        }
        LoadError::Io(error)
    }
}

/// The nodes and the stamp of the snapshot at `path`, checked whole (see the module comment).
pub fn read(path: &Path) -> Result<(NodeMap, Vec<u8>), LoadError> {
    let mut file = File::open(path)?;
    let file_length = file.metadata()?.len();
    let mut header = [0u8; HEADER_LENGTH];
    file.read_exact(&mut header)?;
    if &header[..8] != MAGIC {
        return Err(LoadError::Invalid("not a state tree snapshot (bad magic)".into()));
    }
    let meta_length = u32::from_le_bytes(header[8..12].try_into().expect("4 bytes")) as usize;
    let count = u64::from_le_bytes(header[12..20].try_into().expect("8 bytes"));
    let records_length = u64::from_le_bytes(header[20..28].try_into().expect("8 bytes"));
    let expected = (HEADER_LENGTH + meta_length + CHECKSUM_LENGTH) as u64 + records_length;
    if meta_length > MAX_META_LENGTH || expected != file_length {
        return Err(LoadError::Invalid(format!("the file is {file_length} bytes, its header announces {expected}")));
    }
    let mut meta = vec![0u8; meta_length];
    file.read_exact(&mut meta)?;
    let mut records = NodeMap::arena_for_records(records_length as usize);
    (&mut file).take(records_length).read_to_end(&mut records)?;
    let mut checksum = [0u8; CHECKSUM_LENGTH];
    file.read_exact(&mut checksum)?;
    let mut hasher = Hasher::new();
    hasher.update(&header);
    hasher.update(&meta);
    hasher.update(&records);
    if hasher.finish() != checksum {
        return Err(LoadError::Invalid("checksum mismatch".into()));
    }
    let map = NodeMap::from_records(records, count as usize).map_err(LoadError::Invalid)?;
    Ok((map, meta))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sha256::digest;

    fn temporary_path(name: &str) -> std::path::PathBuf {
        let directory = std::env::temp_dir().join(format!("basalt-snapshot-test-{}-{name}", std::process::id()));
        fs::create_dir_all(&directory).expect("temp dir");
        directory.join("tree.snapshot")
    }

    fn sample_map() -> NodeMap {
        let mut map = NodeMap::with_capacity(4);
        for i in 0..1000u32 {
            let data: Vec<u8> = (0..(i % 70) as u8).collect();
            map.insert(digest(&i.to_le_bytes()), &data);
        }
        for i in (0..1000u32).step_by(7) {
            map.remove(&digest(&i.to_le_bytes()));
        }
        map
    }

    #[test]
    fn a_written_snapshot_reads_back_the_same_nodes_and_stamp() {
        let path = temporary_path("roundtrip");
        let map = sample_map();
        write(&map, &path, b"stamp").expect("write");
        let (loaded, meta) = read(&path).expect("read");
        assert_eq!(meta, b"stamp");
        assert_eq!(loaded.len(), map.len());
        for i in 0..1000u32 {
            let hash = digest(&i.to_le_bytes());
            assert_eq!(loaded.get(&hash).as_deref(), map.get(&hash).as_deref(), "node {i}");
        }
        fs::remove_dir_all(path.parent().expect("dir")).ok();
    }

    #[test]
    fn any_flipped_or_missing_byte_is_refused() {
        let path = temporary_path("corrupt");
        write(&sample_map(), &path, b"stamp").expect("write");
        let bytes = fs::read(&path).expect("read file");
        for at in [0, 9, 15, 25, 30, HEADER_LENGTH + 5 + 40, bytes.len() / 2, bytes.len() - 1] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x10;
            fs::write(&path, &damaged).expect("write damaged");
            assert!(matches!(read(&path), Err(LoadError::Invalid(_))), "byte {at} flipped");
        }
        fs::write(&path, &bytes[..bytes.len() - 3]).expect("write truncated");
        assert!(matches!(read(&path), Err(LoadError::Invalid(_))), "truncated");
        fs::remove_file(&path).expect("remove");
        assert!(matches!(read(&path), Err(LoadError::Io(_))), "missing");
        fs::remove_dir_all(path.parent().expect("dir")).ok();
    }

    #[test]
    fn records_that_do_not_add_up_are_refused() {
        let mut records = Vec::new();
        let mut map = NodeMap::with_capacity(4);
        map.insert([1u8; 32], b"one");
        map.for_each_record(|hash, data| {
            records.extend_from_slice(hash);
            records.extend_from_slice(&(data.len() as u32).to_le_bytes());
            records.extend_from_slice(data);
        });
        assert!(NodeMap::from_records(records.clone(), 2).is_err(), "fewer nodes than announced");
        let mut twice = records.clone();
        twice.extend_from_slice(&records);
        assert!(NodeMap::from_records(twice, 2).is_err(), "a node stored twice");
        assert!(NodeMap::from_records(records[..records.len() - 1].to_vec(), 1).is_err(), "cut short");
        assert_eq!(NodeMap::from_records(records, 1).expect("valid").get(&[1u8; 32]).as_deref(), Some(&b"one"[..]));
    }
}

#[cfg(test)]
mod speed {
    /// `cargo test --release snapshot_speed -- --ignored --nocapture`: where loading a snapshot of
    /// a tree of a million leaves spends its time.
    #[test]
    #[ignore]
    fn snapshot_speed() {
        use super::super::node_map::NodeMap;
        use crate::sha256::{digest, Hasher};
        use std::time::Instant;
        let mut map = NodeMap::with_capacity(16);
        for i in 0..2_400_000u32 {
            let data = [i as u8; 71];
            map.insert(digest(&i.to_le_bytes()), &data[..if i % 2 == 0 { 71 } else { 65 }]);
        }
        let path = std::env::temp_dir().join(format!("basalt-snapshot-speed-{}", std::process::id()));
        let t = Instant::now();
        super::write(&map, &path, b"stamp").expect("write");
        println!("write {:?}", t.elapsed());
        let t = Instant::now();
        let bytes = std::fs::read(&path).expect("read");
        println!("plain read of {} bytes {:?}", bytes.len(), t.elapsed());
        let t = Instant::now();
        let mut hasher = Hasher::new();
        hasher.update(&bytes);
        println!("sha-256 {:?} {}", t.elapsed(), hasher.finish()[0]);
        let t = Instant::now();
        let (loaded, _) = super::read(&path).expect("load");
        println!("load {:?} ({} nodes)", t.elapsed(), loaded.len());
        std::fs::remove_file(&path).ok();
    }
}
