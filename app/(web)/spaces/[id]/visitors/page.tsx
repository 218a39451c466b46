import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { VisitorsChart } from '@/components/spaces/visitors-chart.tsx';
import { Card, EmptyState } from '@/components/ui/card.tsx';
import { Cell, Table } from '@/components/ui/table.tsx';
import { Time } from '@/components/ui/time.tsx';
import type { SignedInCaller } from '@/lib/core/caller.ts';
import type { Space } from '@/lib/schemas/spaces.ts';
import { visitorStats } from '@/lib/spaces/visitors.ts';
import { one, spaceHref, type SearchParams } from '@/lib/web/space-page.ts';
import { spacePage } from '@/app/(web)/spaces/[id]/space-page.ts';
import { plural } from '@/lib/web/format.ts';

export const metadata: Metadata = { title: 'Visitors' };
export const dynamic = 'force-dynamic';

export default async function VisitorsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }) {
  const { id } = await params;
  const search = await searchParams;
  const { caller, space } = await spacePage(id);
  if (!caller.actor || !space.permissions.push) notFound();
  return <Visitors space={space} days={Number(one(search.days) ?? 30)} caller={{ ...caller, actor: caller.actor }} />;
}

async function Visitors({ space, days, caller }: { space: Space; days: number; caller: SignedInCaller }) {
  const span = [7, 30, 90].includes(days) ? days : 30;
  const stats = await visitorStats(caller, space.id, span);
  const top = (title: string, rows: { label: string; views: number }[]) => (
    <Card title={title}>
      {rows.length ? (
        <Table headers={['', 'Views']} label={title}>
          {rows.map((row) => (
            <tr key={row.label}>
              <Cell>{row.label}</Cell>
              <Cell>{row.views}</Cell>
            </tr>
          ))}
        </Table>
      ) : (
        <EmptyState>None yet.</EmptyState>
      )}
    </Card>
  );
  return (
    <>
      <div className="flex flex-wrap items-center gap-4 text-sm">
        {[7, 30, 90].map((d) => (
          <a key={d} href={spaceHref(space.id, 'visitors', { days: d })} aria-current={d === span ? 'page' : undefined} className={d === span ? 'font-semibold' : 'text-link'}>
            {d} days
          </a>
        ))}
        <span className="text-muted">
          {plural(stats.views, 'view')} · {plural(stats.visitors, 'visitor')} · {stats.signedIn} signed in
        </span>
      </div>
      <Card title="Daily views and visitors">
        <VisitorsChart daily={stats.daily} />
      </Card>
      <div className="grid gap-6 md:grid-cols-3">
        {top('Pages', stats.pages)}
        {top('Referrers', stats.referrers)}
        {top('Countries', stats.countries)}
      </div>
      {stats.aliases.length ? top('Through aliases', stats.aliases) : null}
      <Card title="Signed-in people">
        {stats.people.length ? (
          <Table headers={['Person', 'Views', 'Last seen']} label="Signed-in people">
            {stats.people.map((person) => (
              <tr key={person.user.id}>
                <Cell>@{person.user.handle}</Cell>
                <Cell>{person.views}</Cell>
                <Cell>
                  <Time ms={person.lastSeenAt} />
                </Cell>
              </tr>
            ))}
          </Table>
        ) : (
          <EmptyState>No signed-in visitors yet.</EmptyState>
        )}
      </Card>
      <Card title="Recent views">
        {stats.recent.length ? (
          <Table headers={['When', 'Page', 'Who', 'From']} label="Recent views">
            {stats.recent.map((view, i) => (
              <tr key={i}>
                <Cell>
                  <Time ms={view.at} />
                </Cell>
                <Cell>
                  {view.path}
                  {view.alias ? <span className="ml-1 font-mono text-xs text-muted">via {view.alias}</span> : null}
                </Cell>
                <Cell>{view.user ? `@${view.user.handle}` : 'Visitor'}</Cell>
                <Cell>{[view.country, view.referrer].filter(Boolean).join(' · ')}</Cell>
              </tr>
            ))}
          </Table>
        ) : (
          <EmptyState>No views yet.</EmptyState>
        )}
      </Card>
    </>
  );
}
