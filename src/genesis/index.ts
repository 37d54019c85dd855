/** The genesis room: building genesis blocks from module assets (LIP 0060). */
export * from './create-genesis-block.js';
export * from './genesis-assets-file.js';
export { uint64NumbersToStrings } from './json-integers.js';
