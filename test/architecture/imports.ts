// The imports of a source file, read from its text, for the tests that hold
// the shape of the code (test/architecture/layers.test.ts,
// test/client/imports.test.ts).
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');

const SPECIFIER = /(?:^|[;\n}])\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/**
 * Every specifier a file imports. Type-only imports are left out unless
 * `types` is set: they are erased at run time, but a type is as much a
 * folder's vocabulary as a function is.
 */
export function importsOf(source: string, { types = false } = {}): string[] {
  const found: string[] = [];
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const match of code.matchAll(SPECIFIER)) {
    if (!types && /^\s*[;\n}]?\s*(?:import|export)\s+type\s/.test(match[0])) continue;
    found.push(match[1] ?? match[2]);
  }
  return found;
}

/** The file a relative or `@/` specifier names, from the project root; null for a package. */
export function importedFile(from: string, specifier: string): string | null {
  if (specifier.startsWith('@/')) return path.join(root, specifier.slice(2));
  if (specifier.startsWith('.')) return path.resolve(path.dirname(from), specifier);
  return null;
}
