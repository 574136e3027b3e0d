import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const isRoot = () => process.getuid?.() === 0;

export interface TestFilesystem {
  dir: string;
  /** Unmounts (when mounted) and removes the directory; for afterAll, also after a failed test. */
  dispose(): Promise<void>;
}

/**
 * A tmpfs of `size` (mount's notation, e.g. `1m`) mounted on a fresh directory: a disk that
 * really fills, or (`readOnly`) a file system that really refuses writes, also to root, who
 * ignores file modes. Needs root and the right to mount, as the suite has in CI; without them it
 * fails, it does not skip.
 */
export async function mountTmpfs(options: { size: string; readOnly?: boolean; mode?: string }): Promise<TestFilesystem> {
  if (!isRoot()) throw new Error('mounting a tmpfs needs root (the test suite runs as root in CI)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-tmpfs-'));
  const flags = [`size=${options.size}`, `mode=${options.mode ?? '0755'}`, ...(options.readOnly ? ['ro'] : [])];
  try {
    await run('mount', ['-t', 'tmpfs', '-o', flags.join(','), 'tmpfs', dir]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    async dispose() {
      await run('umount', [dir]).catch(() => run('umount', ['-l', dir]));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * An empty directory nobody may write into: a read-only tmpfs as root (file modes do not stop
 * root), a directory of mode 0555 otherwise.
 */
export async function readOnlyDirectory(): Promise<TestFilesystem> {
  if (isRoot()) return mountTmpfs({ size: '64k', readOnly: true });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-read-only-'));
  chmodSync(dir, 0o555);
  return {
    dir,
    async dispose() {
      chmodSync(dir, 0o755);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
