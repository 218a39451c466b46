'use client';
// A text file with numbered lines that can be linked to, as on GitHub: a
// click on a number selects its line, a shift-click the range from the line
// selected before, and the address says which (#L10, #L10-L20) of which
// version (?v=, as GitHub's permalinks pin a commit), so that an address
// opened later, after newer pushes too, highlights the same lines.
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { lineHash, lineRange } from '@/lib/web/file-view.ts';

export function CodeLines({ lines, label, version }: { lines: string[]; label: string; version: number }) {
  const [range, setRange] = useState<[number, number] | null>(null);
  // Where a shift-click extends from: the line clicked last without shift.
  const from = useRef<number | null>(null);

  useEffect(() => {
    const follow = () => {
      const asked = lineRange(window.location.hash);
      setRange(asked);
      from.current = asked?.[0] ?? null;
      if (asked) document.getElementById(`L${asked[0]}`)?.scrollIntoView({ block: 'center' });
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  const select = (event: MouseEvent, line: number) => {
    event.preventDefault();
    const picked: [number, number] = event.shiftKey && from.current !== null ? [Math.min(from.current, line), Math.max(from.current, line)] : [line, line];
    if (!event.shiftKey || from.current === null) from.current = line;
    setRange(picked);
    // Replaced, not pushed: picking lines is not a page to go back to.
    const address = new URL(window.location.href);
    address.searchParams.set('v', String(version));
    address.hash = lineHash(picked);
    window.history.replaceState(window.history.state, '', address);
  };

  return (
    // Focusable, so keyboards can scroll a long line sideways.
    <div tabIndex={0} role="group" aria-label={label} className="hljs max-w-full overflow-x-auto text-sm leading-relaxed focus-visible:outline-2 focus-visible:outline-brand">
      <table className="min-w-full border-collapse font-mono">
        <tbody>
          {lines.map((html, index) => {
            const line = index + 1;
            const selected = range !== null && line >= range[0] && line <= range[1];
            return (
              <tr key={line} data-selected={selected || undefined} className={selected ? 'bg-amber-50 dark:bg-amber-900/40' : undefined}>
                <td className="w-px select-none whitespace-nowrap pr-3 text-right align-top tabular-nums">
                  <a
                    id={`L${line}`}
                    href={`#L${line}`}
                    // Out of the tab order: a long file would be thousands of stops; the address takes #L10 typed as well.
                    tabIndex={-1}
                    onClick={(event) => select(event, line)}
                    className="scroll-mt-24 text-muted hover:text-slate-900 hover:underline dark:hover:text-slate-100"
                  >
                    {line}
                  </a>
                </td>
                <td className="whitespace-pre pr-4">
                  <code dangerouslySetInnerHTML={{ __html: html }} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
