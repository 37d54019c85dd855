/**
 * Basalt replays the mainchain (04000000) of the real lisk-sdk 6.1 interop pair: sidechain
 * registration, cross-chain updates from the sidechain with their CCMs, validators updates,
 * liveness termination and recovery (test/fixtures/chains/interop-dev/mainchain/README.md), and
 * agrees on every block, event and endpoint answer at the tip.
 */
import { describeInteropReplay } from '../support/interop-replay.js';

describeInteropReplay('mainchain', 200);
