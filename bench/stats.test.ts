import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuPerItem, processCpuMs } from './stats.ts';

// The scan bench's CPU split reads each process's CPU time from /proc (Linux, where the benches run).
describe('processCpuMs', () => {
  it("counts a busy child's CPU, not a sleeping one's", async () => {
    const busy = spawn(process.execPath, ['-e', 'const end = Date.now() + 600; while (Date.now() < end);']);
    const idle = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600)']);
    const { cpu_ms_per_item } = await cpuPerItem(
      { busy: busy.pid, idle: idle.pid, gone: 2 ** 22 + 1 },
      2,
      () => new Promise((resolve) => setTimeout(resolve, 400)),
    );
    await Promise.all([busy, idle].map((child) => new Promise((resolve) => child.on('exit', resolve))));
    // 400 ms of a spinning loop is up to 200 ms per item of two (less on a loaded machine); the idle
    // child's start-up is far less.
    expect(cpu_ms_per_item.busy).toBeGreaterThan(40);
    expect(cpu_ms_per_item.idle).toBeLessThan(cpu_ms_per_item.busy ?? 0);
    expect(cpu_ms_per_item).not.toHaveProperty('gone');
  });

  it('is undefined for no process', () => {
    expect(processCpuMs(undefined)).toBeUndefined();
    expect(processCpuMs(2 ** 22 + 1)).toBeUndefined();
    expect(processCpuMs(process.pid)).toBeGreaterThan(0);
  });
});
