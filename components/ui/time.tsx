'use client';
// Times in the viewer's time zone, relative when recent ("2 minutes ago"),
// with the exact time on hover. The server renders the UTC text; the browser
// replaces it with local text once mounted.
import { useEffect, useState } from 'react';
import { formatDay, formatTime, relativeTime } from '@/lib/web/format.ts';

const HOUR = 60 * 60 * 1000;

/**
 * `precision="hour"` for times stored to the hour (a token's last use): the
 * day, or "within the last hour" and "3 hours ago", never a minute the
 * server did not record.
 */
export function Time({ ms, className, precision = 'minute' }: { ms: number | null; className?: string; precision?: 'minute' | 'hour' }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  if (ms === null) return <span>—</span>;
  const hourly = precision === 'hour';
  const exact = now === null ? (hourly ? formatDay(ms) : formatTime(ms)) : new Date(ms).toLocaleString(undefined, hourly ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' });
  const recent = now === null ? null : hourly && Math.abs(now - ms) < HOUR ? 'within the last hour' : relativeTime(ms, now);
  const shown = recent ?? exact;
  return (
    <time dateTime={new Date(ms).toISOString()} title={exact} className={className} suppressHydrationWarning>
      {shown}
    </time>
  );
}
