/** The machine a run happened on: absolute figures mean nothing without it. */
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface MachineInfo {
  readonly cpuModel: string;
  readonly cores: number;
  /** Whether the CPU has the SHA extensions (x86 `sha_ni`, ARM `sha2`); null when unknown. */
  readonly shaExtensions: boolean | null;
  readonly totalMemoryGiB: number;
  readonly platform: string;
  readonly arch: string;
  readonly nodeVersion: string;
  readonly date: string;
}

function cpuFlags(): string[] | null {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => /^(flags|Features)\s*:/.test(l));
    return line === undefined ? null : line.split(':')[1]!.trim().split(/\s+/);
  } catch {
    return null;
  }
}

export function machineInfo(now: Date = new Date()): MachineInfo {
  const cpus = os.cpus();
  const flags = cpuFlags();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    shaExtensions: flags === null ? null : flags.includes('sha_ni') || flags.includes('sha2'),
    totalMemoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: os.platform(),
    arch: os.arch(),
    nodeVersion: process.version,
    date: now.toISOString(),
  };
}
