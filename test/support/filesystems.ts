import { execFile } from 'node:child_process';
import { chmodSync, closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
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
export async function mountTmpfs(options: {
  size: string;
  readOnly?: boolean;
  mode?: string;
  /** Owner of its root directory (a PostgreSQL server's OS user for a tablespace); root by default. */
  owner?: { uid: number; gid: number };
}): Promise<TestFilesystem> {
  if (!isRoot()) throw new Error('mounting a tmpfs needs root (the test suite runs as root in CI)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-tmpfs-'));
  const flags = [
    `size=${options.size}`,
    `mode=${options.mode ?? '0755'}`,
    ...(options.owner ? [`uid=${options.owner.uid}`, `gid=${options.owner.gid}`] : []),
    ...(options.readOnly ? ['ro'] : []),
  ];
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

/** Fills the file system holding `dir` to the last byte with a file `name`; removing that file frees it again. */
export function fillUp(dir: string, name = 'filler'): string {
  const file = path.join(dir, name);
  const descriptor = openSync(file, 'w');
  try {
    const chunk = Buffer.alloc(64 * 1024);
    for (;;) {
      try {
        writeSync(descriptor, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
        throw error;
      }
    }
    // A last partial chunk: what a 64 KiB write could not take, byte by byte in halves.
    for (let size = chunk.length / 2; size >= 1; size = Math.floor(size / 2)) {
      try {
        for (;;) writeSync(descriptor, chunk, 0, size);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(descriptor);
  }
  return file;
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
