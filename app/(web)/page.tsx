import { ButtonLink } from '@/components/ui/button.tsx';
import { Page } from '@/components/page.tsx';
import { currentUser } from '@/lib/accounts/users.ts';
import { pageCaller } from '@/lib/auth/session.ts';
import { InvitationActions } from './invitation-actions.tsx';

export const dynamic = 'force-dynamic';

const features = [
  ['Spaces', 'Publish versioned static sites and files with a plan, upload and commit cycle that only sends what changed.'],
  ['Workspaces', 'Work together with roles, invitations, invite links and an audit log.'],
  ['Rooms', 'Edit a shared document live, chat, see who is there, and build apps from it.'],
  ['One API', 'The web app and the atrium command-line tool use nothing but the documented /v1 API.'],
];

export default async function HomePage() {
  const caller = await pageCaller();
  const { actor } = caller;
  const me = actor ? await currentUser({ ...caller, actor }) : null;
  return (
    <Page actor={actor}>
        <h1 className="text-4xl font-bold tracking-tight">Publish, and work on it together.</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-600">
          Atrium is a self-hostable service for publishing versioned sites and files into spaces, reading their
          history, and collaborating on them in workspaces and live rooms.
        </p>
        {me ? (
          <section className="mt-8 rounded-lg border border-slate-200 p-6" aria-label="Your account">
            <p>
              Signed in as <strong>@{me.user.handle}</strong>
              {me.user.name ? ` (${me.user.name})` : ''}.
            </p>
            {me.invites.length > 0 ? (
              <section className="mt-4 rounded-md bg-amber-50 p-4" aria-label="Pending invitations">
                <h2 className="font-semibold">Pending invitations</h2>
                <ul className="mt-2 space-y-3">
                  {me.invites.map((w) => (
                    <li key={w.id} className="flex flex-wrap items-center justify-between gap-2">
                      <span>
                        <strong>{w.name}</strong> <span className="text-slate-500">/{w.slug}</span> invites you as {w.role}
                      </span>
                      <InvitationActions slug={w.slug} name={w.name} />
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
            <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
              <h2 className="font-semibold">Your workspaces</h2>
              <ButtonLink href="/w/new" variant="secondary">
                New workspace
              </ButtonLink>
            </div>
            <ul className="mt-2 list-disc pl-6">
              {me.workspaces.map((w) => (
                <li key={w.id}>
                  <a className="text-brand hover:underline" href={`/w/${w.slug}`}>
                    {w.name}
                  </a>{' '}
                  <span className="text-slate-500">/{w.slug} · {w.role}</span>
                </li>
              ))}
            </ul>
          </section>
        ) : (
          <div className="mt-8 flex flex-wrap gap-3">
            <ButtonLink href="/signin">Sign in</ButtonLink>
            <ButtonLink href="/reference" variant="secondary">
              API reference
            </ButtonLink>
          </div>
        )}
        <ul className="mt-12 grid gap-6 sm:grid-cols-2">
          {features.map(([title, text]) => (
            <li key={title} className="rounded-lg bg-brand-soft p-5">
              <h2 className="font-semibold">{title}</h2>
              <p className="mt-1 text-sm text-slate-700">{text}</p>
            </li>
          ))}
        </ul>
    </Page>
  );
}
