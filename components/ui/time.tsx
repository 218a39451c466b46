'use client';
// Times in the viewer's time zone, relative when recent ("2 minutes ago"),
// with the exact time on hover. The server renders the UTC text; the browser
// replaces it with local text once mounted.
import { useEffect, useState } from 'react';
import { formatTime, relativeTime } from '@/lib/web/format.ts';

export function Time({ ms, className }: { ms: number | null; className?: string }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  if (ms === null) return <span>—</span>;
  const exact = now === null ? formatTime(ms) : new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  const shown = now === null ? formatTime(ms) : (relativeTime(ms, now) ?? exact);
  return (
    <time dateTime={new Date(ms).toISOString()} title={exact} className={className} suppressHydrationWarning>
      {shown}
    </time>
  );
}
