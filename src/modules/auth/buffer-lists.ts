/** Checks on lists of keys used by the auth rules (lisk-utils buffer_array semantics). */

/** True when some byte string occurs twice. */
export function hasDuplicates(list: readonly Buffer[]): boolean {
  if (list.length < 2) return false;
  const seen = new Set<string>();
  for (const item of list) {
    const id = item.toString('latin1');
    if (seen.has(id)) return true;
    seen.add(id);
  }
  return false;
}

/** True when the list is in ascending byte order; equal neighbours count as ordered (like lisk-sdk). */
export function isSortedAscending(list: readonly Buffer[]): boolean {
  for (let i = 1; i < list.length; i += 1) {
    if ((list[i - 1] as Buffer).compare(list[i] as Buffer) > 0) return false;
  }
  return true;
}

/** True when some byte string of `a` also occurs in `b`. */
export function sharesAnItem(a: readonly Buffer[], b: readonly Buffer[]): boolean {
  return a.some((item) => b.some((other) => other.equals(item)));
}
