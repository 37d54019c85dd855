/** Every suite, in the order `npm run bench` runs them (cheap first, the long macro run last). */
import type { Suite } from '../lib/suite.js';
import { blockApplySuite } from './block-apply.js';
import { blsSuite } from './bls.js';
import { codecSuite } from './codec.js';
import { ed25519Suite } from './ed25519.js';
import { interopSuite } from './interop.js';
import { liskSuite } from './lisk.js';
import { migrationSuite } from './migration.js';
import { nativeSuite } from './native.js';
import { replaySuite } from './replay.js';
import { rmtSuite } from './rmt.js';
import { rpcLoadSuite } from './rpc-load.js';
import { sha256Suite } from './sha256.js';
import { smtStoreSuite } from './smt-store.js';
import { smtSuite } from './smt.js';
import { syncSuite } from './sync.js';

export const SUITES: readonly Suite[] = [
  codecSuite,
  sha256Suite,
  ed25519Suite,
  blsSuite,
  rmtSuite,
  smtSuite,
  nativeSuite,
  smtStoreSuite,
  replaySuite,
  blockApplySuite,
  interopSuite,
  rpcLoadSuite,
  syncSuite,
  liskSuite,
  migrationSuite,
];
