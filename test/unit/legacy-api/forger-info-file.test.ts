/**
 * forger_info.json (docs/protocol/legacy-forging-api.md): Core's forging status per delegate,
 * copied between nodes, read as v4 generator info (maxHeightPreviouslyForged → maxHeightGenerated).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeLisk32 } from '../../../src/crypto/index.js';
import { FORGER_INFO_FILE, ForgerInfoFile, laterInfo, parseForgerInfo } from '../../../src/legacy-api/forger-info-file.js';

const A = Buffer.alloc(20, 0x0a);
const B = Buffer.alloc(20, 0x0b);

describe('ForgerInfoFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-forger-info-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts empty without a file, writes Core names, and reads them back as generator info', () => {
    const file = new ForgerInfoFile(dir);
    expect(file.get(A)).toBeUndefined();
    file.save([{ address: B, info: { height: 30, maxHeightPrevoted: 28, maxHeightGenerated: 25 } }]);
    file.save([{ address: A, info: { height: 20, maxHeightPrevoted: 18, maxHeightGenerated: 15 } }]);
    const json = JSON.parse(readFileSync(join(dir, FORGER_INFO_FILE), 'utf8'));
    // Both addresses kept, in address order.
    expect(json).toEqual({
      forgerInfo: [
        { address: encodeLisk32(A), height: 20, maxHeightPrevoted: 18, maxHeightPreviouslyForged: 15 },
        { address: encodeLisk32(B), height: 30, maxHeightPrevoted: 28, maxHeightPreviouslyForged: 25 },
      ],
    });
    const copied = new ForgerInfoFile(dir);
    expect(copied.get(A)).toEqual({ height: 20, maxHeightPrevoted: 18, maxHeightGenerated: 15 });
    expect(copied.get(B)).toEqual({ height: 30, maxHeightPrevoted: 28, maxHeightGenerated: 25 });
  });

  it('refuses a damaged file with ERR_LEGACY_CONFIG', () => {
    writeFileSync(join(dir, FORGER_INFO_FILE), '{"forgerInfo": [');
    expect(() => new ForgerInfoFile(dir)).toThrow(
      expect.objectContaining({ code: 'ERR_LEGACY_CONFIG', message: expect.stringContaining('not valid JSON') }),
    );
  });

  it('names the entry that is wrong', () => {
    expect(() => parseForgerInfo({}, 'f.json')).toThrow('f.json: expected {"forgerInfo": [...]}.');
    expect(() =>
      parseForgerInfo({ forgerInfo: [{ address: 'lsk000', height: 1, maxHeightPrevoted: 1, maxHeightPreviouslyForged: 1 }] }, 'f.json'),
    ).toThrow('f.json: forgerInfo[0].address must be a lisk32 address.');
    expect(() =>
      parseForgerInfo(
        { forgerInfo: [{ address: encodeLisk32(A), height: -1, maxHeightPrevoted: 1, maxHeightPreviouslyForged: 1 }] },
        'f.json',
      ),
    ).toThrow('f.json: forgerInfo[0]: height, maxHeightPrevoted and maxHeightPreviouslyForged must be integers ≥ 0.');
  });
});

describe('laterInfo', () => {
  it("takes each field's higher value, so a resumed delegate never signs below either record", () => {
    const stored = { height: 100, maxHeightPrevoted: 90, maxHeightGenerated: 80 };
    const copied = { height: 95, maxHeightPrevoted: 97, maxHeightGenerated: 99 };
    expect(laterInfo(stored, copied)).toEqual({ height: 100, maxHeightPrevoted: 97, maxHeightGenerated: 99 });
    expect(laterInfo(undefined, copied)).toEqual(copied);
    expect(laterInfo(stored, undefined)).toEqual(stored);
    expect(laterInfo(undefined, undefined)).toBeUndefined();
  });
});
