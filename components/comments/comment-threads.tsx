'use client';
// Comment threads beside a file (or, in review mode, beside a published page):
// select text to start a thread, reply, resolve, reopen, edit (with history)
// and delete; quotes are highlighted in place. New comments appear without a
// reload: the space head's commentsUpdatedAt is polled.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import Markdown from 'react-markdown';
import { Button } from '@/components/ui/button.tsx';
import { Time } from '@/components/ui/time.tsx';
import type { Answer } from '@/lib/client/index.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';
import { commentsApi } from '@/lib/schemas/comments.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { web } from '@/lib/web/api-client.ts';
import { useConfirm } from '@/components/ui/dialog.tsx';
import { useToast, type Toast } from '@/components/ui/toast.tsx';

type Thread = Answer<typeof commentsApi.list>['threads'][number];
type Comment = Omit<Thread, 'replies'>;
export type Selection = { exact: string; prefix: string; suffix: string };

const POLL_MS = 4000;

// --- guests: the browser keeps a key (and the name) in localStorage ----------

const KEY_ITEM = 'atrium.guestKey';
const NAME_ITEM = 'atrium.guestName';

function guestKey(): string {
  let key = localStorage.getItem(KEY_ITEM);
  if (!key) {
    const bytes = crypto.getRandomValues(new Uint8Array(24)); // 192 random bits
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    localStorage.setItem(KEY_ITEM, key);
  }
  return key;
}

/** The text of the selection in `root` with 32 characters of context each side, or null. */
export function selectionIn(root: Node, selection: globalThis.Selection | null): Selection | null {
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  if (!root.contains(range.commonAncestorContainer)) return null;
  const exact = range.toString();
  if (!exact.trim()) return null;
  const doc = root.ownerDocument ?? document;
  const before = doc.createRange();
  before.selectNodeContents(root);
  before.setEnd(range.startContainer, range.startOffset);
  const after = doc.createRange();
  after.selectNodeContents(root);
  after.setStart(range.endContainer, range.endOffset);
  return { exact: exact.slice(0, 2000), prefix: before.toString().slice(-32), suffix: after.toString().slice(0, 32) };
}

/** Highlights each quote in `root` with the CSS Custom Highlight API (no change to the DOM). */
export function highlightQuotes(root: Node, quotes: string[], name = 'atrium-comments') {
  const registry = (globalThis as { CSS?: { highlights?: Map<string, unknown> } }).CSS?.highlights;
  const Highlight = (globalThis as { Highlight?: new (...ranges: Range[]) => unknown }).Highlight;
  if (!registry || !Highlight) return;
  const doc = root.ownerDocument ?? document;
  const nodes: Text[] = [];
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
  const text = nodes.map((n) => n.data).join('');
  const ranges: Range[] = [];
  const at = (offset: number): [Text, number] | null => {
    for (const node of nodes) {
      if (offset <= node.data.length) return [node, offset];
      offset -= node.data.length;
    }
    return null;
  };
  for (const quote of quotes) {
    const start = text.indexOf(quote);
    if (start === -1) continue;
    const from = at(start);
    const to = at(start + quote.length);
    if (!from || !to) continue;
    const range = doc.createRange();
    range.setStart(from[0], from[1]);
    range.setEnd(to[0], to[1]);
    ranges.push(range);
  }
  registry.set(name, new Highlight(...ranges));
}

function who(comment: Comment) {
  if (comment.author.kind === 'guest') return `${comment.author.name} (guest)`;
  return comment.author.handle ? `@${comment.author.handle}` : comment.author.name;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type Props = {
  spaceId: string;
  path: string;
  versionNumber: number;
  /** The preview (alias) the reader came through: recorded with what they write. */
  alias: string | null;
  canComment: boolean;
  signedIn: boolean;
  /** The user's id, to offer edit on their own comments. */
  userId: string | null;
  canPush: boolean;
  /** The selection to comment on, from the file or the review frame. */
  selection: Selection | null;
  /** Forget the selection: comment on the whole file instead. */
  onClearSelection?: () => void;
  /** Users the viewer blocked: their comments are shown collapsed. */
  blockedIds?: string[];
  onThreads?: (threads: Thread[]) => void;
};

export function CommentThreads(props: Props) {
  const { spaceId, path } = props;
  const [status, setStatus] = useState<'open' | 'resolved' | 'all'>('open');
  const [threads, setThreads] = useState<Thread[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [guestName, setGuestName] = useState('');
  const [blocked, setBlocked] = useState<Set<string>>(() => new Set(props.blockedIds ?? []));
  const stamp = useRef<number | null>(null);
  const toast = useToast();
  const { onThreads } = props;

  const load = useCallback(async () => {
    try {
      const answer = await web.call(commentsApi.list, { params: { id: spaceId }, query: { path, status, v: String(props.versionNumber) } });
      setThreads(answer.threads);
      onThreads?.(answer.threads);
    } catch (e) {
      setError(errorText(e));
    }
  }, [spaceId, path, status, props.versionNumber, onThreads]);

  useEffect(() => {
    setGuestName(localStorage.getItem(NAME_ITEM) ?? '');
  }, []);

  useEffect(() => {
    void load();
    const timer = setInterval(async () => {
      try {
        const head = await web.call(spacesApi.head, { params: { id: spaceId } });
        // The first tick loads too: a change made between the page's first load and this tick has no earlier stamp to differ from.
        if (head.commentsUpdatedAt !== stamp.current) void load();
        stamp.current = head.commentsUpdatedAt;
      } catch {
        // offline for a moment: the next poll tries again
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [load, spaceId]);

  const guest = (withName: boolean) => (props.signedIn ? undefined : { key: guestKey(), ...(withName ? { name: guestName.trim() } : {}) });

  /** Runs a change and reloads; `done` is the toast saying what it did. */
  async function act(work: () => Promise<unknown>, done?: string, undo?: Toast['action']) {
    setError(null);
    try {
      await work();
      if (done) toast({ message: done, action: undo });
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  }

  /** Guests write their name once (it is kept in this browser) before commenting or replying. */
  function guestNameMissing(): boolean {
    if (props.signedIn) return false;
    if (!guestName.trim()) {
      setError('Write your name first: it is shown with your comment.');
      return true;
    }
    localStorage.setItem(NAME_ITEM, guestName.trim());
    return false;
  }

  async function block(userId: string) {
    await act(async () => {
      await web.call(accountsApi.block, { body: { userId } });
      setBlocked((was) => new Set([...was, userId]));
    });
  }

  async function start() {
    if (!props.selection && !draft.trim()) return;
    if (guestNameMissing()) return;
    await act(async () => {
      await web.call(commentsApi.create, {
        params: { id: spaceId },
        body: {
          path,
          body: draft,
          versionNumber: props.versionNumber,
          ...(props.alias ? { alias: props.alias } : {}),
          ...(props.selection ? { quote: props.selection.exact, anchor: props.selection } : {}),
          guest: guest(true),
        },
      });
      setDraft('');
      props.onClearSelection?.();
    });
  }

  const isBlocked = (c: Comment) => c.author.id !== null && blocked.has(c.author.id);
  const mine = (c: Comment) => (props.userId !== null && c.author.id === props.userId) || (!props.signedIn && c.author.kind === 'guest');

  return (
    <aside aria-label="Comments" className="space-y-3 text-sm">
      <div className="flex items-center justify-between gap-2">
        <h2 className="font-semibold">Comments</h2>
        <label className="flex items-center gap-1 text-muted">
          Show
          <select aria-label="Thread status" value={status} onChange={(e) => setStatus(e.target.value as typeof status)} className="rounded-md border border-slate-300 px-1 py-0.5">
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
            <option value="all">All</option>
          </select>
        </label>
      </div>
      {error ? (
        <p role="alert" className="text-danger">
          {error}
        </p>
      ) : null}
      {props.canComment && !props.signedIn ? (
        <label className="block text-muted">
          Your name <span className="text-xs">(shown with your comments as a guest)</span>
          <input value={guestName} onChange={(e) => setGuestName(e.target.value)} className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1" maxLength={50} autoComplete="name" />
        </label>
      ) : null}
      {props.canComment ? (
        <form
          aria-label="New comment"
          className="space-y-2 rounded-lg border border-line p-3"
          onSubmit={(e) => {
            e.preventDefault();
            void start();
          }}
        >
          {props.selection ? (
            <div className="flex items-start gap-2">
              <blockquote aria-label="Selected text" className="min-w-0 flex-1 border-l-4 border-amber-300 pl-2 text-muted [overflow-wrap:anywhere]">
                {props.selection.exact}
              </blockquote>
              {props.onClearSelection ? (
                <button type="button" className="text-xs text-muted underline" onClick={props.onClearSelection}>
                  Clear
                </button>
              ) : null}
            </div>
          ) : (
            <p className="text-muted">Select text to comment on it, or comment on the whole file.</p>
          )}
          <textarea aria-label="Comment" value={draft} onChange={(e) => setDraft(e.target.value)} rows={3} className="w-full rounded-md border border-slate-300 px-2 py-1" required maxLength={10000} />
          <Button type="submit">Comment</Button>
        </form>
      ) : null}
      {threads.length === 0 ? <p className="text-muted">No {status === 'all' ? '' : status} threads on this file.</p> : null}
      <ul className="space-y-3">
        {threads.map((thread) => (
          <li key={thread.id} id={thread.id} aria-label={`Thread by ${who(thread)}`} className="rounded-lg border border-line p-3">
            {thread.quote ? (
              <blockquote className={`mb-2 border-l-4 pl-2 ${thread.anchor?.status === 'orphaned' ? 'border-slate-300 text-muted line-through' : 'border-amber-300 text-muted'}`}>
                {thread.quote}
              </blockquote>
            ) : null}
            {thread.anchor?.status === 'orphaned' ? <p className="mb-2 text-xs text-muted">The quoted text is no longer in this version.</p> : null}
            <CommentItem comment={thread} mine={mine(thread)} canDelete={mine(thread) || props.canPush} act={act} guest={guest} blocked={isBlocked(thread)} onBlock={props.signedIn ? block : undefined} userId={props.userId} />
            <ul className="mt-2 space-y-2 border-l border-line pl-3">
              {thread.replies.map((reply) => (
                <li key={reply.id}>
                  <CommentItem comment={reply} mine={mine(reply)} canDelete={mine(reply) || props.canPush} act={act} guest={guest} blocked={isBlocked(reply)} onBlock={props.signedIn ? block : undefined} userId={props.userId} />
                </li>
              ))}
            </ul>
            <ThreadActions thread={thread} props={props} act={act} guest={guest} guestNameMissing={guestNameMissing} canResolve={props.canPush || (props.userId !== null && thread.author.id === props.userId)} />
          </li>
        ))}
      </ul>
    </aside>
  );
}

type Act = (work: () => Promise<unknown>, done?: string, undo?: Toast['action']) => Promise<void>;
type GuestOf = (withName: boolean) => { key: string; name?: string } | undefined;

function ThreadActions({ thread, props, act, guest, guestNameMissing, canResolve }: { thread: Thread; props: Props; act: Act; guest: GuestOf; guestNameMissing: () => boolean; canResolve: boolean }) {
  const [reply, setReply] = useState('');
  return (
    <div className="mt-2 space-y-2">
      {props.canComment ? (
        <form
          aria-label="Reply"
          className="flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (guestNameMissing()) return;
            void act(async () => {
              await web.call(commentsApi.create, { params: { id: props.spaceId }, body: { path: thread.path, body: reply, parentId: thread.id, ...(props.alias ? { alias: props.alias } : {}), guest: guest(true) } });
              setReply('');
            });
          }}
        >
          <input aria-label="Reply" placeholder="Reply…" value={reply} onChange={(e) => setReply(e.target.value)} className="min-w-0 flex-1 rounded-md border border-slate-300 px-2 py-1" required />
          <Button type="submit" variant="secondary">
            Reply
          </Button>
        </form>
      ) : null}
      {canResolve ? (
        thread.resolvedAt ? (
          <Button variant="secondary" onClick={() => act(() => web.call(commentsApi.unresolve, { params: { id: thread.id } }), 'Thread reopened.')}>
            Reopen
          </Button>
        ) : (
          // A resolved thread leaves the list of open ones: the toast says where it went, with an undo.
          <Button
            variant="secondary"
            onClick={() =>
              act(() => web.call(commentsApi.resolve, { params: { id: thread.id } }), 'Thread resolved.', {
                label: 'Undo',
                run: () => act(() => web.call(commentsApi.unresolve, { params: { id: thread.id } }), 'Thread reopened.'),
              })
            }
          >
            Resolve
          </Button>
        )
      ) : null}
      {thread.resolvedAt && thread.resolvedBy ? <p className="text-xs text-muted">Resolved by {thread.resolvedBy.handle ? `@${thread.resolvedBy.handle}` : thread.resolvedBy.name}</p> : null}
    </div>
  );
}

type ItemProps = { comment: Comment; mine: boolean; canDelete: boolean; act: Act; guest: GuestOf; blocked: boolean; onBlock?: (userId: string) => Promise<void>; userId: string | null };

function CommentItem(props: ItemProps) {
  const [shown, setShown] = useState(false);
  if (props.blocked && !shown) {
    return (
      <p className="text-xs text-muted">
        Comment from someone you blocked.{' '}
        <button type="button" className="underline" onClick={() => setShown(true)}>
          Show
        </button>
      </p>
    );
  }
  return <CommentBody {...props} />;
}

/** The author's name; for a user, a menu with their profile and "Block @handle". */
function AuthorMenu({ comment, onBlock, userId }: { comment: Comment; onBlock?: (userId: string) => Promise<void>; userId: string | null }) {
  const { author } = comment;
  if (author.kind !== 'user' || !author.handle || !author.id) return <span className="font-medium">{who(comment)}</span>;
  const id = author.id;
  return (
    <details className="relative inline-block">
      <summary className="cursor-pointer list-none font-medium underline decoration-dotted" aria-label={`${who(comment)}: author menu`}>
        {who(comment)}
      </summary>
      <div className="absolute left-0 z-10 mt-1 flex min-w-[10rem] flex-col gap-1 rounded-md border border-line bg-surface p-2 text-sm shadow">
        <a href={`/u/${author.handle}`} className="text-link underline">
          Profile of @{author.handle}
        </a>
        {onBlock && id !== userId ? (
          <button type="button" className="text-left text-danger underline" onClick={() => void onBlock(id)}>
            Block @{author.handle}
          </button>
        ) : null}
      </div>
    </details>
  );
}

function CommentBody({ comment, mine, canDelete, act, guest, onBlock, userId }: ItemProps) {
  const confirm = useConfirm();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(comment.body);
  const [history, setHistory] = useState<{ body: string; writtenAt: number }[] | null>(null);
  let content: ReactNode = (
    <div className="markdown max-w-none">
      {/* react-markdown without rehype-raw: raw HTML in a comment is shown as text, never run. */}
      <Markdown>{comment.body}</Markdown>
    </div>
  );
  if (editing) {
    content = (
      <form
        aria-label="Edit comment"
        onSubmit={(e) => {
          e.preventDefault();
          void act(async () => {
            await web.call(commentsApi.edit, { params: { id: comment.id }, body: { body: text, guest: guest(false) } });
            setEditing(false);
          });
        }}
        className="space-y-1"
      >
        <textarea aria-label="Comment text" value={text} onChange={(e) => setText(e.target.value)} rows={3} className="w-full rounded-md border border-slate-300 px-2 py-1" />
        <Button type="submit">Save</Button>
      </form>
    );
  }
  return (
    <div>
      <p className="text-xs text-muted">
        <AuthorMenu comment={comment} onBlock={onBlock} userId={userId} /> · <Time ms={comment.createdAt} />
        {comment.alias ? (
          <>
            {' '}
            · via <span className="font-mono">{comment.alias}</span>
          </>
        ) : null}
        {comment.editedAt ? (
          <button
            type="button"
            className="ml-1 underline"
            onClick={async () => setHistory(history ? null : (await web.call(commentsApi.revisions, { params: { id: comment.id } })).revisions)}
          >
            (edited)
          </button>
        ) : null}
      </p>
      {content}
      {history ? (
        <ol aria-label="Earlier texts" className="mt-1 space-y-1 border-l-2 border-line pl-2 text-xs text-muted">
          {history.map((r, i) => (
            <li key={i}>
              <Time ms={r.writtenAt} />: {r.body}
            </li>
          ))}
        </ol>
      ) : null}
      <div className="mt-1 flex gap-2 text-xs">
        {mine && !editing ? (
          <button type="button" className="text-link underline" onClick={() => setEditing(true)}>
            Edit
          </button>
        ) : null}
        {canDelete ? (
          <button
            type="button"
            className="text-danger underline"
            onClick={async () => {
              if (await confirm({ title: 'Delete this comment and its replies?', confirmLabel: 'Delete comment', danger: true })) void act(() => web.call(commentsApi.delete, { params: { id: comment.id }, body: { guest: guest(false) } }));
            }}
          >
            Delete
          </button>
        ) : null}
      </div>
    </div>
  );
}
