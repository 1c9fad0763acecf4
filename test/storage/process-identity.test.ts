import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { currentProcess, identityOf, isProvablyGone } from '../../src/storage/process-identity.js';

async function liveChild() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await once(child, 'spawn');
  return child;
}

describe.runIf(process.platform === 'linux')('process identity', () => {
  it('names this process by host, boot, pid namespace, pid and start time', () => {
    const self = currentProcess();
    expect(self.pid).toBe(process.pid);
    expect(self.boot).toMatch(/^[0-9a-f-]{36}$/);
    expect(self.pidns).toMatch(/^pid:\[\d+\]$/);
    expect(self.start).toMatch(/^\d+$/);
    expect(isProvablyGone(self)).toBe(false);
  });

  it('says a process is gone once it has exited, not while it runs', async () => {
    const child = await liveChild();
    const identity = identityOf(child.pid!)!;
    expect(identity.start).toMatch(/^\d+$/);
    expect(isProvablyGone(identity)).toBe(false);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(isProvablyGone(identity)).toBe(true);
  });

  it('sees a reused pid through its start time, including a previous process that had this pid', async () => {
    const child = await liveChild();
    try {
      expect(isProvablyGone({ ...identityOf(child.pid!)!, start: '1' })).toBe(true);
      expect(isProvablyGone({ ...currentProcess(), start: '1' })).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('never declares dead what it cannot check: another host, boot or pid namespace, or no start time', () => {
    const gone = { ...currentProcess(), pid: 2 ** 22 + 17, start: '5' };
    expect(isProvablyGone(gone)).toBe(true);
    expect(isProvablyGone({ ...gone, host: 'elsewhere' })).toBe(false);
    expect(isProvablyGone({ ...gone, boot: '00000000-0000-0000-0000-000000000000' })).toBe(false);
    expect(isProvablyGone({ ...gone, boot: null })).toBe(false);
    expect(isProvablyGone({ ...gone, pidns: 'pid:[1]' })).toBe(false);
    expect(isProvablyGone({ ...gone, start: null })).toBe(false);
  });
});
