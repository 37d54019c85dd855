/**
 * Basalt replays the sidechain (04000001) of the real lisk-sdk 6.1 interop pair: mainchain
 * registration, cross-chain updates from the mainchain with their CCMs, and state recovery
 * (test/fixtures/chains/interop-dev/sidechain/README.md), and agrees on every block, event and
 * endpoint answer at the tip.
 */
import { describeInteropReplay } from '../support/interop-replay.js';

describeInteropReplay('sidechain', 150);
