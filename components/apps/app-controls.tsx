'use client';
// The controls of an app's page: going live, access and join code, pause,
// promote, rollback, owner link. Each is one /v1 call, then a refresh.
import { useState, type FormEvent } from 'react';
import { ActionButton } from '@/components/ui/action-button.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { SelectField } from '@/components/ui/field.tsx';
import { appsApi, type App } from '@/lib/schemas/apps.ts';
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

export function GoLiveForm({ app }: { app: App }) {
  const { busy, error, run } = useAction();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    void run(() => web.call(appsApi.live, { params: { id: app.id }, body: { access: String(data.get('access')) as Access, copyData: data.get('copyData') === 'on' } }));
  }
  return (
    <form onSubmit={submit} className="grid gap-3 sm:max-w-md">
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
  const { busy, error, run } = useAction();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    void run(() => web.call(appsApi.patch, { params: { id: app.id }, body: { access: String(data.get('access')) as Access } }));
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

export function AppActions({ app }: { app: App }) {
  const path = `/v1/apps/${app.id}`;
  return (
    <div className="flex flex-wrap gap-3">
      {app.access === 'code' ? (
        <ActionButton method="PATCH" path={path} body={{ newJoinCode: true }}>
          New join code
        </ActionButton>
      ) : null}
      <ActionButton method="POST" path={`${path}/promote`} variant="primary" disabled={app.liveVersion === app.previewVersion}>
        Promote preview v{app.previewVersion}
      </ActionButton>
      <ActionButton method="PATCH" path={path} body={{ paused: app.status !== 'paused' }}>
        {app.status === 'paused' ? 'Resume' : 'Pause'}
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
        <a className="text-sm text-brand break-all" href={url} target="_blank" rel="noreferrer">
          Open as administrator (10 minutes, once)
        </a>
      ) : null}
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </span>
  );
}

export function RollbackButton({ appId, deploy }: { appId: string; deploy: number }) {
  return (
    <ActionButton method="POST" path={`/v1/apps/${appId}/rollback`} body={{ deploy }}>
      Roll back
    </ActionButton>
  );
}

export function DeleteAppButton({ app }: { app: App }) {
  return (
    <ActionButton method="DELETE" path={`/v1/apps/${app.id}`} variant="danger" goTo={`/w/${app.room.workspace.slug}/apps`}>
      Delete app
    </ActionButton>
  );
}
