'use client';
// The controls of an app's page: going live, access and join code, pause,
// promote, rollback, owner link. Each is one /v1 call, then a refresh.
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { ActionButton } from '@/components/ui/action-button.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { useConfirm } from '@/components/ui/dialog.tsx';
import { SelectField } from '@/components/ui/field.tsx';
import { useToast } from '@/components/ui/toast.tsx';
import { appsApi, type App, type AppDeploy } from '@/lib/schemas/apps.ts';
import { web } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

const ACCESS_LABELS = { code: 'Anyone with the join code', public: 'Anyone with the link', private: 'People of the room and workspace (sign-in)' } as const;
type Access = keyof typeof ACCESS_LABELS;

function AccessSelect({ defaultValue }: { defaultValue: Access }) {
  return (
    <SelectField label="Who may open it" name="access" defaultValue={defaultValue}>
      {(Object.keys(ACCESS_LABELS) as Access[]).map((key) => (
        <option key={key} value={key}>
          {ACCESS_LABELS[key]}
        </option>
      ))}
    </SelectField>
  );
}

// Going live is a production action like promote: it asks first, saying who
// will be able to open the app, and a toast says it is done.
export function GoLiveForm({ app }: { app: App }) {
  const router = useRouter();
  const confirm = useConfirm();
  const toast = useToast();
  const { busy, error, run } = useAction();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const access = String(data.get('access')) as Access;
    const asked = {
      title: `Put ${app.name} live?`,
      description: `Preview version ${app.previewVersion} gets its own address, and ${ACCESS_LABELS[access].toLowerCase()} can open it. The workspace's members are told.`,
      confirmLabel: 'Go live',
    };
    if (!(await confirm(asked))) return;
    await run(
      () => web.call(appsApi.live, { params: { id: app.id }, body: { access, copyData: data.get('copyData') === 'on' } }),
      () => {
        toast({ message: `${app.name} is live.` });
        router.refresh();
      },
    );
  }
  return (
    <form onSubmit={(event) => void submit(event)} className="grid gap-3 sm:max-w-md">
      <AccessSelect defaultValue="code" />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="copyData" /> Copy the preview&apos;s rows into the live tables
      </label>
      <Button type="submit" disabled={busy || app.previewVersion === 0}>
        {busy ? 'Going live…' : 'Go live'}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </form>
  );
}

export function AccessForm({ app }: { app: App }) {
  const router = useRouter();
  const toast = useToast();
  const { busy, error, run } = useAction();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const access = String(new FormData(event.currentTarget).get('access')) as Access;
    void run(
      () => web.call(appsApi.patch, { params: { id: app.id }, body: { access } }),
      () => {
        toast({ message: `Saved: ${ACCESS_LABELS[access].toLowerCase()} may open it.` });
        router.refresh();
      },
    );
  }
  return (
    <form onSubmit={submit} className="grid gap-3 sm:max-w-md">
      <AccessSelect defaultValue={app.access} />
      <Button type="submit" variant="secondary" disabled={busy}>
        Save access
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </form>
  );
}

// Promote, rollback and pause change what every visitor gets at once: each asks
// first, saying what will happen, and a toast says how it went.
export function AppActions({ app }: { app: App }) {
  const path = `/v1/apps/${app.id}`;
  const paused = app.status === 'paused';
  return (
    <div className="flex flex-wrap gap-3">
      {app.access === 'code' ? (
        <ActionButton method="PATCH" path={path} body={{ newJoinCode: true }} done="A new join code is set; the old one no longer opens the app.">
          New join code
        </ActionButton>
      ) : null}
      <ActionButton
        method="POST"
        path={`${path}/promote`}
        variant="primary"
        disabled={app.liveVersion === app.previewVersion}
        confirm={{
          title: `Promote preview v${app.previewVersion}?`,
          description: `Version ${app.previewVersion} replaces version ${app.liveVersion} for everyone who opens the live app. You can roll back from the deploys below.`,
          confirmLabel: 'Promote',
        }}
        done={`Version ${app.previewVersion} is live.`}
      >
        Promote preview v{app.previewVersion}
      </ActionButton>
      <ActionButton
        method="PATCH"
        path={path}
        body={{ paused: !paused }}
        confirm={paused ? undefined : { title: `Pause ${app.name}?`, description: 'Visitors see a paused page until you resume it. Its data and join code are kept.', confirmLabel: 'Pause', danger: true }}
        done={paused ? 'Resumed: visitors get the app again.' : 'Paused: visitors see a paused page.'}
      >
        {paused ? 'Resume' : 'Pause'}
      </ActionButton>
    </div>
  );
}

export function OwnerLinkButton({ appId }: { appId: string }) {
  const { busy, error, run } = useAction();
  const [url, setUrl] = useState<string | null>(null);
  return (
    <span className="inline-flex flex-col gap-1">
      <Button type="button" variant="secondary" disabled={busy} onClick={() => void run(() => web.call(appsApi.ownerLink, { params: { id: appId } }), (link) => setUrl(link.url))}>
        Owner link
      </Button>
      {url ? (
        <a className="text-sm text-link break-all" href={url} target="_blank" rel="noreferrer">
          Open as administrator (10 minutes, once)
        </a>
      ) : null}
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </span>
  );
}

export function RollbackButton({ app, deploy }: { app: App; deploy: AppDeploy }) {
  return (
    <ActionButton
      method="POST"
      path={`/v1/apps/${app.id}/rollback`}
      body={{ deploy: deploy.deploy }}
      size="sm"
      label={`Roll back to deploy ${deploy.deploy}`}
      confirm={{
        title: `Roll back to version ${deploy.version}?`,
        description: `Version ${deploy.version} (deploy ${deploy.deploy}) replaces version ${app.liveVersion} for everyone who opens the live app, as a new deploy.`,
        confirmLabel: 'Roll back',
      }}
      done={`Rolled back: version ${deploy.version} is live.`}
    >
      Roll back
    </ActionButton>
  );
}

export function DeleteAppButton({ app }: { app: App }) {
  return (
    <ActionButton
      method="DELETE"
      path={`/v1/apps/${app.id}`}
      variant="danger"
      goTo={`/w/${app.room.workspace.slug}/apps`}
      confirm={{ title: `Delete ${app.name}?`, description: 'Its versions, deploys and live data go too, and its address stops answering. This cannot be undone.', confirmLabel: 'Delete app', danger: true }}
    >
      Delete app
    </ActionButton>
  );
}
