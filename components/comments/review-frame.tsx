'use client';
// Review mode: a published HTML page in a sandboxed frame beside its threads.
// The frame has an opaque origin (sandbox without allow-same-origin), so it
// never gets the app's cookies nor reads the app; a small script added to the
// page reports selections to this window by postMessage and highlights quotes.
import { useCallback, useEffect, useRef, useState } from 'react';
import { CommentThreads, type Selection } from './comment-threads.tsx';

type Props = Omit<Parameters<typeof CommentThreads>[0], 'selection' | 'onThreads'> & { srcDoc: string };

export function ReviewFrame({ srcDoc, ...props }: Props) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [selection, setSelection] = useState<Selection | null>(null);
  useEffect(() => {
    const listen = (event: MessageEvent) => {
      // Only our frame's messages: its origin is opaque ("null"), so check the sender.
      if (event.source !== frame.current?.contentWindow) return;
      const data = event.data as { type?: string; exact?: unknown; prefix?: unknown; suffix?: unknown };
      if (data?.type !== 'atrium-selection' || typeof data.exact !== 'string') return;
      setSelection({ exact: data.exact.slice(0, 2000), prefix: String(data.prefix ?? '').slice(-32), suffix: String(data.suffix ?? '').slice(0, 32) });
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, []);
  const onThreads = useCallback((threads: { quote: string | null; anchor: { status: string } | null }[]) => {
    const quotes = threads.filter((t) => t.quote && t.anchor?.status !== 'orphaned').map((t) => t.quote!);
    frame.current?.contentWindow?.postMessage({ type: 'atrium-highlight', quotes }, '*');
  }, []);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
      <iframe
        ref={frame}
        title={`Review of ${props.path}`}
        srcDoc={srcDoc}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        className="h-[75vh] w-full rounded-lg border border-line bg-surface"
      />
      <CommentThreads {...props} selection={selection} onClearSelection={() => setSelection(null)} onThreads={onThreads} />
    </div>
  );
}
