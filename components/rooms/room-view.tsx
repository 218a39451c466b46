'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LiveSpace, Room, RoomMember } from '@/lib/schemas/rooms.ts';
import { web } from '@/lib/web/api-client.ts';
import { ChatPanel } from './chat-panel.tsx';
import { HistoryPanel } from './history-panel.tsx';
import { colorAmong, colorOf } from './colors.ts';
import { connect, sendMessage, type Caps, type ChatMessage, type Connection, type ServerEvent, type Status } from './connection.ts';
import { KIND, type RoomKindName } from './kinds.ts';
import { PagesSidebar, usePages } from './pages-sidebar.tsx';
import { PeoplePanel } from './people-panel.tsx';
import { RoomEditor } from './room-editor.tsx';
import { useConfirm } from '@/components/ui/dialog.tsx';
import { DropdownMenu } from '@/components/ui/menu.tsx';
import { toastAfterReload } from '@/components/ui/toast.tsx';
import { SourcesPanel } from './sources-panel.tsx';
import './rooms.css';

type Me = { id: string; handle: string; name: string | null };
type Present = { clientId: number; name: string; color: string; handle?: string; page?: string; self: boolean };

const NO_CAPS: Caps = { view: false, comment: false, edit: false, manage: false };

const STATUS_TEXT: Record<Status, string> = { connecting: 'Connecting…', connected: 'Live', disconnected: 'Offline, reconnecting…', revoked: 'No access' };

/** The room page: pages, the editor of the chosen page, and chat, people and sources beside it — all live over one socket. */
export function RoomView({ kind, room, me }: { kind: RoomKindName; room: Room | LiveSpace; me: Me }) {
  const [connection, setConnection] = useState<Connection | null>(null);
  const [status, setStatus] = useState<Status>('connecting');
  const [synced, setSynced] = useState(false);
  const [grantedCaps, setCaps] = useState<Caps>(room.caps);
  // Once access is gone nothing may be done here: no control shows what the server would refuse.
  const caps = status === 'revoked' ? NO_CAPS : grantedCaps;
  const [role, setRole] = useState(room.role);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [sendError, setSendError] = useState<string | null>(null);
  const [revokedMessage, setRevokedMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [present, setPresent] = useState<Present[]>([]);
  const [pageId, setPageId] = useState<string | null>(null);
  // Whether the server has an AI service: told in the socket's hello (rooms only).
  const [aiAvailable, setAiAvailable] = useState(false);
  const [tab, setTab] = useState<'chat' | 'people' | 'sources' | 'history'>('chat');
  // The person's own colour unless someone who came first has it (colorAmong).
  const own = useMemo(() => colorOf(me.id), [me.id]);
  const [color, setColor] = useState(own);
  const user = useMemo(() => ({ name: me.name || `@${me.handle}`, color, own }), [me, color, own]);
  const sendCounter = useRef(0);
  // Bumped when the server says the room's people or sources changed, and on
  // every (re)connection, which may have missed such news: the panels reload.
  const [changes, setChanges] = useState({ people: 0, sources: 0 });
  // Whom the editor offers to @mention, read again when the room's people change.
  const [people, setPeople] = useState<RoomMember['user'][]>([]);

  const onEvent = useCallback((event: ServerEvent) => {
    switch (event.kind) {
      case 'hello':
        setChanges((c) => ({ people: c.people + 1, sources: c.sources + 1 }));
        setAiAvailable(event.ai === true);
        setCaps(event.caps);
        setRole(event.role);
        break;
      case 'access':
        setCaps(event.caps);
        setRole(event.role);
        break;
      case 'chat.history':
        setMessages(event.messages);
        break;
      case 'chat.message':
        setSendError(null);
        setMessages((list) => (list.some((m) => m.id === event.message.id) ? list : [...list, event.message]));
        break;
      case 'chat.deleted':
        setMessages((list) => list.filter((m) => m.id !== event.messageId));
        break;
      case 'chat.error':
        setSendError(event.message);
        break;
      case 'access.revoked':
        setRevokedMessage(event.message);
        break;
      case 'changed':
        setChanges((c) => ({ ...c, [event.what]: c[event.what] + 1 }));
        break;
    }
  }, []);

  useEffect(() => {
    let live: Connection | null = null;
    let cancelled = false;
    connect(kind, room.id, { onEvent, onStatus: setStatus, onSynced: () => setSynced(true) }).then(
      (c) => {
        if (cancelled) return c.close();
        live = c;
        setConnection(c);
      },
      (error: Error) => setFailure(`Could not open the ${KIND[kind].noun.toLowerCase()}: ${error.message}`),
    );
    return () => {
      cancelled = true;
      live?.close();
    };
  }, [kind, room.id, onEvent]);

  // Presence: who is here and on which page, from the awareness states.
  useEffect(() => {
    const awareness = connection?.provider.awareness;
    if (!awareness) return;
    awareness.setLocalStateField('user', user);
    const update = () => {
      const list: Present[] = [];
      const people: { clientId: number; own: string }[] = [];
      awareness.getStates().forEach((state, clientId) => {
        const u = state.user as { name?: string; color?: string; own?: string; handle?: string } | undefined;
        const theirs = u?.own ?? u?.color;
        if (theirs) people.push({ clientId, own: theirs });
        if (!u?.name) return;
        list.push({ clientId, name: u.name, color: u.color ?? '#64748b', handle: u.handle, page: state.page as string | undefined, self: clientId === awareness.clientID });
      });
      setPresent(list);
      setColor(colorAmong(awareness.clientID, people));
    };
    update();
    awareness.on('change', update);
    return () => awareness.off('change', update);
  }, [connection, user]);

  useEffect(() => {
    web.call(KIND[kind].api.people, { params: { id: room.id } }).then(
      (answer) => setPeople(answer.members.map((member) => member.user)),
      () => setPeople([]),
    );
  }, [kind, room.id, changes.people]);

  // A link to a page (`?page=<id>`, as in mention e-mails) opens that page.
  useEffect(() => {
    setPageId(new URLSearchParams(window.location.search).get('page'));
  }, []);

  const pages = usePages(connection?.doc ?? null);
  // Stay on the chosen page while it exists; otherwise open the first.
  const current = pages.find((p) => p.id === pageId) ?? pages[0] ?? null;

  const here = useMemo(() => {
    const byPage: Record<string, { name: string; color: string }[]> = {};
    for (const p of present) if (p.page && !p.self) (byPage[p.page] ??= []).push(p);
    return byPage;
  }, [present]);

  const send = useCallback(
    (body: string) => {
      sendCounter.current += 1;
      if (connection) sendMessage(connection.provider, { kind: 'chat.send', body, id: `c${sendCounter.current}` });
    },
    [connection],
  );

  const others = present.filter((p) => !p.self);

  return (
    <div>
      <header className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">
            {room.icon ? `${room.icon} ` : ''}
            {room.name}
          </h1>
          <p className="text-sm text-muted">{status === 'revoked' ? 'no access' : `you are ${role}`}</p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <ul aria-label="Here now" className="flex -space-x-1">
            {others.map((p) => (
              <li
                key={p.clientId}
                title={`${p.name}${p.handle ? ` (@${p.handle})` : ''}`}
                className="flex h-7 w-7 items-center justify-center rounded-full border-2 border-white text-xs font-semibold text-white"
                style={{ background: p.color }}
              >
                <span aria-hidden="true">{p.name.replace(/^@/, '').slice(0, 1).toUpperCase()}</span>
                <span className="sr-only">{p.name}</span>
              </li>
            ))}
          </ul>
          <span
            role="status"
            aria-label="Connection"
            className={`rounded-full px-2 py-0.5 text-xs ${status === 'connected' ? 'bg-green-100 text-green-800' : 'bg-amber-100 text-amber-800'}`}
          >
            {STATUS_TEXT[status]}
          </span>
          <RoomMenu kind={kind} roomId={room.id} manage={caps.manage} onError={setFailure} />
        </div>
      </header>

      {failure ? (
        <p role="alert" className="mb-4 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {failure}
        </p>
      ) : null}
      {revokedMessage ? (
        <p role="alert" className="mb-4 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {revokedMessage}
        </p>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-[12rem_minmax(0,1fr)_20rem]">
        <aside>{connection ? <PagesSidebar doc={connection.doc} pages={pages} current={current?.id ?? null} onSelect={setPageId} editable={caps.edit} here={here} /> : null}</aside>
        <div className="min-w-0">
          {connection && current && synced ? (
            <RoomEditor key={current.id} kind={kind} roomId={room.id} people={people} doc={connection.doc} provider={connection.provider} pageId={current.id} pageTitle={current.title} user={user} editable={caps.edit} aiSuggest={aiAvailable && 'aiSuggest' in room && room.aiSuggest} imagesPath={kind === 'live' ? `/v1/live-spaces/${room.id}/images` : null} />
          ) : (
            <p className="text-sm text-muted">{status === 'revoked' ? '' : 'Loading the document…'}</p>
          )}
        </div>
        <aside>
          <div role="tablist" aria-label="Panels" className="mb-3 flex gap-1 border-b border-line text-sm">
            {(['chat', 'people', 'sources', 'history'] as const).map((t) => (
              <button
                key={t}
                role="tab"
                type="button"
                aria-selected={tab === t}
                onClick={() => setTab(t)}
                className={`border-b-2 px-3 py-1 capitalize ${tab === t ? 'border-brand font-medium text-link' : 'border-transparent text-muted'}`}
              >
                {t}
              </button>
            ))}
          </div>
          <div hidden={tab !== 'chat'}>
            <ChatPanel kind={kind} roomId={room.id} messages={messages} caps={caps} me={me.id} send={send} sendError={sendError} connected={status === 'connected'} />
          </div>
          {tab === 'people' ? <PeoplePanel kind={kind} room={room} caps={caps} me={me} present={present} changes={changes.people} /> : null}
          {tab === 'sources' ? <SourcesPanel kind={kind} roomId={room.id} caps={caps} me={me.id} changes={changes.sources} /> : null}
          {tab === 'history' && current ? <HistoryPanel key={current.id} kind={kind} roomId={room.id} pageId={current.id} pageTitle={current.title} caps={caps} /> : null}
        </aside>
      </div>
    </div>
  );
}

/** The page's menu: the document as Markdown and, for managers, deleting it (after the app's confirm dialog). */
function RoomMenu({ kind, roomId, manage, onError }: { kind: RoomKindName; roomId: string; manage: boolean; onError: (message: string) => void }) {
  const confirm = useConfirm();
  const { noun, prefix, api } = KIND[kind];
  const thing = noun.toLowerCase();
  async function remove() {
    if (!(await confirm({ title: `Delete this ${thing} for everyone?`, description: 'Its document, chat and sources go with it. This cannot be undone.', confirmLabel: `Delete ${thing}`, danger: true }))) return;
    try {
      await web.call(api.delete, { params: { id: roomId } });
      toastAfterReload(`${noun} deleted.`);
      window.location.assign(`/${prefix}`);
    } catch (failure) {
      onError(`Could not delete the ${thing}: ${(failure as Error).message}`);
    }
  }
  return (
    <DropdownMenu
      label={`${noun} actions`}
      align="right"
      button={<span>Actions</span>}
      items={[
        { label: 'Download as Markdown', href: `/v1/${prefix}/${roomId}/markdown` },
        ...(manage ? [{ separator: true as const }, { label: `Delete ${thing}…`, run: () => void remove(), danger: true }] : []),
      ]}
    />
  );
}
