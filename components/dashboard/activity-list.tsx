import { Time } from '@/components/ui/time.tsx';
import type { Activity } from '@/lib/spaces/overview.ts';

const who = (p: { handle: string } | null) => (p ? `@${p.handle}` : 'A deleted user');

/** Recent activity in sentences, newest first. */
export function ActivityList({ activity }: { activity: Activity[] }) {
  return (
    <ul aria-label="Recent activity" className="space-y-3 text-sm">
      {activity.map((a, i) => (
        <li key={i} className="min-w-0">
          {a.kind === 'version' ? (
            <>
              {who(a.by)} published version {a.number} of{' '}
              <a href={`/spaces/${a.space.id}/history?v=${a.number}`} className="font-medium text-link hover:underline">
                {a.space.name}
              </a>
              {a.message ? <span className="text-muted"> — “{a.message}”</span> : null}
            </>
          ) : (
            <>
              {who(a.by)} joined{' '}
              <a href={`/w/${a.workspace.slug}`} className="font-medium text-link hover:underline">
                {a.workspace.name}
              </a>
            </>
          )}
          <span className="block text-xs text-muted">
            <Time ms={a.at} />
          </span>
        </li>
      ))}
    </ul>
  );
}
