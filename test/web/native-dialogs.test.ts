// The web app asks through its own dialog (useConfirm), never the browser's
// confirm(), alert() or prompt(): those cannot be themed, named or styled,
// and they block the page.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function sources(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => path.join(folder, file));
}

describe('dialogs in the web app', () => {
  it("never use the browser's confirm, alert or prompt", () => {
    const offenders = [...sources('components'), ...sources('app')].flatMap((file) => {
      const text = readFileSync(path.join(root, file), 'utf8');
      const native = /\bwindow\.(confirm|alert|prompt)\s*\(/.test(text) || /(?<![.\w])(alert|prompt)\s*\(/.test(text);
      // A bare confirm(...) is the browser's unless the file takes the app's from useConfirm() (or defines it: ui/dialog.tsx).
      const bareConfirm = /(?<![.\w])confirm\s*\(/.test(text) && !/const confirm = (useConfirm\(\)|useCallback\()/.test(text);
      return native || bareConfirm ? [file] : [];
    });
    expect(offenders).toEqual([]);
  });
});
