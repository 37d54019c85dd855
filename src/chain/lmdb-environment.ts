/**
 * Where a data directory keeps its LMDB environment (chain store and state store share it) and
 * the options every opener must use: the node's writer and the workers' read-only views alike.
 * An environment opened with other options, mapSize above all, could disagree with the writer.
 */
export function chainEnvPath(dataPath: string): string {
  return `${dataPath}/basalt.lmdb`;
}

/**
 * No compression: values are already compact binary encodings. Durable commits are LMDB's
 * default and are kept, with lmdb-js's overlapping sync (its default on Linux): a transaction is
 * visible once committed and flushed right after, so a killed process never loses a committed
 * block and a power loss leaves the last flushed one (docs/architecture.md, "Durability of a
 * committed block").
 *
 * `mapSize` is the address space reserved up front, not a limit on the store: lmdb-js's LMDB grows
 * the map when a write transaction needs more pages, so MDB_MAP_FULL does not occur, and a
 * read-only opener maps the file's own size whatever its option says. What ends a store's growth
 * is the disk: a commit that cannot write its pages fails (`StoreWriteError`, and a node stops).
 *
 * How overlapping sync orders a large transaction (lmdb-js 3.x, its LMDB's `mdb_txn_commit`):
 * the pages and the meta page are written, the transaction is visible, the write lock is
 * released, and only then does the committing thread run the fsync and mark that meta page as
 * flushed. lmdb-js runs each transaction as a task of its own on the libuv thread pool, so the
 * next block's puts run while the previous block's fsync does. Only the end of the next commit
 * can wait for it (once visible, a transaction of more than a few hundred pages keeps the write
 * lock until the previous fsync ended), and the next block's execution usually outlasts that
 * fsync. After a power loss, a new boot id makes LMDB open at the last meta page marked as
 * flushed, whose pages were never reused (pages freed after it are not handed out before the
 * next flush).
 *
 * Options measured and left out (a block of 10,000 state updates into 1,000,000 entries, about
 * 8,900 pages copied on write, about 105 ms of CPU on the write threads, a third in the kernel):
 * - `useWritemap` halves that CPU (no copies in the heap, no writes at commit), but LMDB then
 *   extends the file to `mapSize` at open (a sparse 16 GiB file, which every copy of a data
 *   directory then sees). Under a file size limit the process died at open (SIGSEGV) instead of
 *   failing a commit, and a full disk is met as SIGBUS while a page is written. It also lets a
 *   stray write through a returned buffer change the store.
 * - `noMemInit` saves about 8% (pages are not zeroed before use), but the unused part of every
 *   page written then holds whatever that heap memory held before, key material included, in a
 *   file operators archive and share.
 * - `pageSize` 8192 touches fewer pages (about 7,100) but writes and syncs 60% more bytes; 2,048
 *   touches more of them (about 11,300) and costs more CPU. Either holds only for new stores.
 * What remains is LMDB's own work per page copied (searching the tree, keeping the dirty list in
 * page order: its pages come off the free list in descending order, so each one is inserted at
 * the front, about a fifth of the write threads' time), which no option changes.
 */
export const CHAIN_ENV_OPTIONS = { compression: false, maxDbs: 32, mapSize: 2 ** 34 } as const;
