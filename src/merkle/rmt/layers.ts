import { NotFoundError } from '../../errors.js';
import { branchHash } from '../hash.js';
import type { NodeLocation } from './tree-shape.js';

/**
 * All node hashes of a regular Merkle tree, layer by layer from the leaf hashes up (LIP 0031,
 * docs/protocol/merkle-trees.md). An unpaired last node is not copied up: it waits until a later
 * layer also ends with an unpaired node and is then hashed as that node's right partner. This is
 * why a layer can be shorter than half of the one below, and why `layers[layer][position]` is
 * exactly the node that LIP 0031 index arithmetic (tree-shape.ts) points at.
 *
 * The top layer holds the root alone; an empty tree has one empty layer.
 */
export function buildLayers(leafHashes: readonly Buffer[]): Buffer[][] {
  const layers: Buffer[][] = [leafHashes.slice()];
  let current = layers[0] as Buffer[];
  let waiting: Buffer | undefined;
  while (current.length > 1 || waiting !== undefined) {
    const pairs = current.length >> 1;
    const next = new Array<Buffer>(pairs);
    for (let i = 0; i < pairs; i += 1) {
      next[i] = branchHash(current[2 * i] as Buffer, current[2 * i + 1] as Buffer);
    }
    if (current.length % 2 === 1) {
      const last = current[current.length - 1] as Buffer;
      if (waiting === undefined) {
        waiting = last;
      } else {
        next.push(branchHash(last, waiting));
        waiting = undefined;
      }
    }
    layers.push(next);
    current = next;
  }
  return layers;
}

/** The hash at a location of built layers; NotFoundError when the layers hold no node there. */
export function nodeHashAt(layers: readonly (readonly Buffer[])[], { layer, position }: NodeLocation): Buffer {
  const hash = layers[layer]?.[position];
  if (hash === undefined) throw new NotFoundError(`Merkle tree has no node at layer ${layer}, position ${position}.`);
  return hash;
}
