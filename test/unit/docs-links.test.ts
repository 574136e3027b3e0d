import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link in README.md, CONTRIBUTING.md and docs/ must resolve in a clone: the target is
 * a committed file or folder inside the repository, and an `#anchor` names a heading of the target.
 * Links into a sibling checkout (`../shared/…`) or to a build output fail here.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function documents(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', 'CONTRIBUTING.md', ...docs];
}

/** Files a clone has: git's index when this is a checkout, else what is on disk. */
function committedPaths(): Set<string> | null {
  try {
    const out = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return new Set(out.split('\0').filter(Boolean));
  } catch {
    return null;
  }
}

function existsInClone(committed: Set<string> | null, path: string): boolean {
  if (committed === null) return existsSync(join(root, path));
  if (committed.has(path)) return true;
  const prefix = path === '' ? '' : `${path}/`;
  for (const file of committed) if (file.startsWith(prefix)) return true;
  return false;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of stripCode(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = (heading[1] ?? '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Fenced blocks and inline code hold examples, not links; headings keep their text. */
function stripCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

export function relativeLinks(markdown: string): string[] {
  const text = stripCode(markdown).replace(/`[^`\n]*`/g, '');
  const links: string[] = [];
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push(match[1] ?? '');
  for (const match of text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) links.push(match[1] ?? '');
  for (const match of text.matchAll(/<([^<>\s]+)>/g)) if (/^[./#]/.test(match[1] ?? '')) links.push(match[1] ?? '');
  return links.filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link));
}

describe('documentation links', () => {
  it('finds links, anchors and skips code', () => {
    expect(relativeLinks('[a](docs/x.md) `[b](nope.md)` [c](https://e.example) [d](#top)\n```\n[e](no.md)\n```\n[f]: ./y.md')).toEqual([
      'docs/x.md',
      '#top',
      './y.md',
    ]);
    expect([...headingAnchors('# Top\n## Competition office (`/office/`)\n## Top\n```\n# not\n```')]).toEqual([
      'top',
      'competition-office-office',
      'top-1',
    ]);
  });

  it('every relative link in README.md, CONTRIBUTING.md and docs/ resolves in a clone', () => {
    const committed = committedPaths();
    const broken: string[] = [];
    const files = documents();
    expect(files).toContain(join('docs', 'service-spec.md'));
    for (const file of files) {
      const markdown = readFileSync(join(root, file), 'utf8');
      for (const link of relativeLinks(markdown)) {
        const [pathPart, anchor] = link.split('#', 2) as [string, string | undefined];
        const target = pathPart === '' ? join(root, file) : resolve(root, dirname(file), decodeURIComponent(pathPart));
        const inRepo = relative(root, target);
        if (inRepo.startsWith(`..${sep}`) || inRepo === '..') {
          broken.push(`${file}: ${link} points outside the repository`);
          continue;
        }
        if (!existsInClone(committed, inRepo.split(sep).join('/')) || !existsSync(target)) {
          broken.push(`${file}: ${link} does not exist in a clone`);
          continue;
        }
        if (anchor !== undefined && anchor !== '' && target.endsWith('.md') && statSync(target).isFile()) {
          if (!headingAnchors(readFileSync(target, 'utf8')).has(anchor.toLowerCase()))
            broken.push(`${file}: ${link} names no heading of ${inRepo}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
