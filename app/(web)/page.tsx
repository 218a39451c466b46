import { ButtonLink } from '@/components/ui/button.tsx';
import { Card, EmptyState } from '@/components/ui/card.tsx';
import { Page } from '@/components/page.tsx';
import { ActivityList } from '@/components/dashboard/activity-list.tsx';
import { FirstRun } from '@/components/dashboard/first-run.tsx';
import { SpaceGrid } from '@/components/dashboard/space-grid.tsx';
import { currentUser } from '@/lib/accounts/users.ts';
import { pageCaller } from '@/server/http/session.ts';
import { config } from '@/lib/config.ts';
import { dashboard } from '@/lib/spaces/overview.ts';
import { InvitationActions } from './invitation-actions.tsx';

export const dynamic = 'force-dynamic';

/** The most recently pushed spaces shown; "All spaces" has the rest. */
const DASHBOARD_SPACES = 12;

const features = [
  ['Spaces', 'Publish versioned static sites and files with a plan, upload and commit cycle that only sends what changed.'],
  ['Workspaces', 'Work together with roles, invitations, invite links and an audit log.'],
  ['Rooms', 'Edit a shared document live, chat, see who is there, and build apps from it.'],
  ['One API', 'The web app and the atrium command-line tool use nothing but the documented /v1 API.'],
];

export default async function HomePage() {
  const caller = await pageCaller();
  const { actor } = caller;
  if (!actor) return <Welcome />;
  const signedIn = { ...caller, actor };
  const [me, board] = await Promise.all([currentUser(signedIn), dashboard(signedIn, DASHBOARD_SPACES)]);
  return (
    <Page actor={actor}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Dashboard</h1>
          <section aria-label="Your account" className="text-sm text-muted">
            Signed in as @{me.user.handle}
            {me.user.name ? ` (${me.user.name})` : ''}
          </section>
        </div>
        <ButtonLink href="/w/new" variant="secondary">
          New workspace
        </ButtonLink>
      </div>

      {me.invites.length > 0 ? (
        <section className="mt-6 rounded-lg border border-amber-200 bg-amber-50 p-4 dark:border-amber-900 dark:bg-amber-950/40" aria-label="Pending invitations">
          <h2 className="font-semibold">Pending invitations</h2>
          <ul className="mt-2 space-y-3">
            {me.invites.map((w) => (
              <li key={w.id} className="flex flex-wrap items-center justify-between gap-2">
                <span>
                  <strong>{w.name}</strong> <span className="text-muted">/{w.slug}</span> invites you as {w.role}
                </span>
                <InvitationActions slug={w.slug} name={w.name} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_20rem]">
        <div className="min-w-0 space-y-6">
          {board.published ? null : <FirstRun server={config.publicUrl} />}
          <section aria-labelledby="your-spaces">
            <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
              <h2 id="your-spaces" className="text-lg font-semibold">
                Your spaces
              </h2>
              <a href="/spaces" className="text-sm text-link hover:underline">
                All spaces
              </a>
            </div>
            {board.spaces.length ? (
              <SpaceGrid spaces={board.spaces} label="Your spaces" />
            ) : (
              <EmptyState title="No spaces yet" action={<ButtonLink href={`/w/${me.user.handle}/spaces`}>Create a space</ButtonLink>}>
                A space holds a site or a set of files, with every version kept.
              </EmptyState>
            )}
          </section>
        </div>
        <div className="min-w-0 space-y-6">
          <Card title="Recent activity">
            {board.activity.length ? <ActivityList activity={board.activity} /> : <p className="text-sm text-muted">Pushes and new members show here as they happen.</p>}
          </Card>
          <Card title="Workspaces">
            <ul aria-label="Your workspaces" className="space-y-2 text-sm">
              {board.workspaces.map((w) => (
                <li key={w.id} className="flex items-center justify-between gap-2">
                  <a className="min-w-0 font-medium text-link hover:underline" href={`/w/${w.slug}`}>
                    {w.name}
                  </a>
                  <span className="shrink-0 text-xs text-muted">{w.role}</span>
                </li>
              ))}
            </ul>
          </Card>
        </div>
      </div>
    </Page>
  );
}

function Welcome() {
  return (
    <Page actor={null}>
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Publish, and work on it together.</h1>
      <p className="mt-4 max-w-2xl text-lg text-muted">
        Atrium is a self-hostable service for publishing versioned sites and files into spaces, reading their history, and collaborating on them in
        workspaces and live rooms.
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <ButtonLink href="/signin">Sign in</ButtonLink>
        <ButtonLink href="/reference" variant="secondary">
          API reference
        </ButtonLink>
      </div>
      <ul className="mt-12 grid gap-6 sm:grid-cols-2">
        {features.map(([title, text]) => (
          <li key={title} className="rounded-lg bg-brand-soft p-5 dark:bg-indigo-950/40">
            <h2 className="font-semibold">{title}</h2>
            <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{text}</p>
          </li>
        ))}
      </ul>
    </Page>
  );
}
