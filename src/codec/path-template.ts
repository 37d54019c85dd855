/**
 * Property paths for error messages. Compiled codecs know each property's path at compile time,
 * with `[]` where an array index goes (`.items[].amount`); the running index of each enclosing
 * array is kept in a small number array and filled in only when an error is reported, so the
 * hot path never builds strings.
 */

/** Appends a property name to a template path. */
export function childPath(parent: string, name: string): string {
  return `${parent}.${name}`;
}

/** Number of `[]` placeholders in a template (= how many arrays enclose it). */
export function arrayDepth(template: string): number {
  let depth = 0;
  for (let i = template.indexOf('[]'); i !== -1; i = template.indexOf('[]', i + 2)) depth += 1;
  return depth;
}

/** Replaces the k-th `[]` of `template` by `[indices[k]]`; missing indices stay `[]`. */
export function resolvePath(template: string, indices: readonly number[]): string {
  let k = 0;
  return template.replace(/\[\]/g, () => {
    const index = indices[k];
    k += 1;
    return index === undefined ? '[]' : `[${index}]`;
  });
}
