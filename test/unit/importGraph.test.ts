import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import graph of the code we ship, read from the sources: every relative `import … from`, `export …
 * from` and `import()` (type-only imports too: a cycle of types is still two files that need each other).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCES = ['server/src', 'shared/src', 'kiosk', 'console'];
const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^;]*?\sfrom\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gs;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
}

const files = SOURCES.flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
const graph = new Map(
  files.map((file) => {
    const text = fs.readFileSync(file, 'utf8');
    const targets = [...text.matchAll(SPECIFIER)]
      .map((match) => resolve(file, match[1] ?? match[2] ?? ''))
      .filter((target): target is string => target !== undefined);
    return [file, [...new Set(targets)]];
  }),
);
const relative = (file: string) => path.relative(ROOT, file);

/** Strongly connected components of more than one file (Tarjan): each one is an import cycle. */
function cycles(): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(relative(member));
      if (member === file) break;
    }
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('the import graph', () => {
  it('reads imports at all (the check below would pass on an empty graph)', () => {
    expect(graph.get(path.join(ROOT, 'server/src/app.ts'))).toContain(path.join(ROOT, 'server/src/routes/index.ts'));
  });

  it('has no cycle', () => {
    expect(cycles()).toEqual([]);
  });

  it('has no arrow from db/ up: the plumbing imports only itself, shared/ and the logger', () => {
    const db = path.join(ROOT, 'server/src/db') + path.sep;
    const allowed = (target: string) =>
      target.startsWith(db) ||
      target.startsWith(path.join(ROOT, 'shared/src') + path.sep) ||
      target === path.join(ROOT, 'server/src/logger.ts');
    const upward = [...graph]
      .filter(([file]) => file.startsWith(db))
      .flatMap(([file, targets]) =>
        targets.filter((target) => !allowed(target)).map((t) => `${relative(file)} -> ${relative(t)}`),
      );
    expect(upward).toEqual([]);
  });
});
