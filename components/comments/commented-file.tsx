'use client';
// A file with its threads beside it: selecting text in the rendered file
// offers "Comment"; quotes of the listed threads are highlighted in place.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { CommentThreads, highlightQuotes, selectionIn, type Selection } from './comment-threads.tsx';

type Props = Omit<Parameters<typeof CommentThreads>[0], 'selection' | 'onThreads'> & { children: ReactNode };

export function CommentedFile({ children, ...props }: Props) {
  const root = useRef<HTMLDivElement>(null);
  const [selection, setSelection] = useState<Selection | null>(null);
  // selectionchange, not mouseup: a selection made with the keyboard (Shift+arrows) counts too.
  useEffect(() => {
    const follow = () => {
      const picked = root.current ? selectionIn(root.current, document.getSelection()) : null;
      if (picked) setSelection(picked);
    };
    document.addEventListener('selectionchange', follow);
    return () => document.removeEventListener('selectionchange', follow);
  }, []);
  const onThreads = useCallback((threads: { quote: string | null; anchor: { status: string } | null }[]) => {
    if (root.current) highlightQuotes(root.current, threads.filter((t) => t.quote && t.anchor?.status !== 'orphaned').map((t) => t.quote!));
  }, []);
  return (
    // minmax(0, 1fr): a long line of code scrolls inside its block instead of widening the page.
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
      {/* The quotes' highlight (invisible without a style). Not in globals.css: the build's CSS
          optimiser does not know ::highlight() and warns about it on every build. */}
      <style href="atrium-comments-highlight" precedence="default">
        {'::highlight(atrium-comments) { background-color: #fde68a; color: #0f172a; }'}
      </style>
      <div ref={root} data-testid="commentable" className="min-w-0">
        {children}
      </div>
      <CommentThreads {...props} selection={selection} onClearSelection={() => setSelection(null)} onThreads={onThreads} />
    </div>
  );
}
