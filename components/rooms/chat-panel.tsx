'use client';

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorNote } from '@/components/ui/card.tsx';
import { web } from '@/lib/web/api-client.ts';
import { Time } from '@/components/ui/time.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Dialog, useConfirm } from '@/components/ui/dialog.tsx';
import { TextAreaField } from '@/components/ui/field.tsx';
import type { Caps, ChatMessage } from './connection.ts';
import { KIND, type RoomKindName } from './kinds.ts';

const MAX_CHARS = 4000;

/**
 * The room's chat: history and new messages arrive over the socket (the
 * server already leaves out people the reader blocks); sending goes over the
 * socket too, deleting and reporting through the API.
 */
export function ChatPanel({
  kind,
  roomId,
  messages,
  caps,
  me,
  send,
  sendError,
  connected,
}: {
  kind: RoomKindName;
  roomId: string;
  messages: ChatMessage[];
  caps: Caps;
  me: string;
  send: (body: string) => void;
  sendError: string | null;
  connected: boolean;
}) {
  const confirm = useConfirm();
  const [draft, setDraft] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [reporting, setReporting] = useState<ChatMessage | null>(null);
  const [reason, setReason] = useState('');
  const list = useRef<HTMLOListElement>(null);
  const { api } = KIND[kind];

  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [messages.length]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const body = draft.trim();
    if (!body) return;
    send(body);
    setDraft('');
  }

  async function remove(message: ChatMessage) {
    if (!(await confirm({ title: 'Delete this message for everyone?', confirmLabel: 'Delete message', danger: true }))) return;
    setNote(null);
    try {
      await web.call(api.deleteMessage, { params: { id: roomId, messageId: message.id } });
    } catch (error) {
      setNote((error as Error).message);
    }
  }

  async function report(message: ChatMessage) {
    setReporting(null);
    setNote(null);
    try {
      await web.call(api.reportMessage, { params: { id: roomId, messageId: message.id }, body: reason.trim() ? { reason: reason.trim().slice(0, 1000) } : {} });
      setNote('Reported. A copy of the message was kept for the operators.');
    } catch (error) {
      setNote((error as Error).message);
    }
  }

  return (
    <section aria-label="Chat" className="flex h-full flex-col text-sm">
      <ol ref={list} aria-label="Messages" className="mb-2 max-h-[28rem] min-h-[8rem] flex-1 space-y-2 overflow-y-auto">
        {messages.length === 0 ? <li className="text-muted">No messages yet.</li> : null}
        {messages.map((m) => {
          const mine = m.author?.id === me;
          return (
            <li key={m.id} className="group rounded-md bg-slate-50 px-2 py-1 dark:bg-slate-800" aria-label={`Message from ${m.author ? `@${m.author.handle}` : m.authorName}`}>
              <div className="flex items-baseline justify-between gap-2">
                <span className="font-medium">{m.author ? m.author.name || `@${m.author.handle}` : m.authorName}</span>
                <Time ms={m.createdAt} className="text-xs text-muted" />
              </div>
              <p className="whitespace-pre-wrap break-words">{m.body}</p>
              <div className="flex gap-2 text-xs text-muted">
                {mine || caps.manage ? (
                  <button type="button" className="hover:text-red-700" onClick={() => remove(m)}>
                    Delete
                  </button>
                ) : null}
                {!mine && caps.comment ? (
                  <button
                    type="button"
                    className="hover:text-red-700"
                    onClick={() => {
                      setReason('');
                      setReporting(m);
                    }}
                  >
                    Report
                  </button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
      <Dialog open={reporting !== null} onClose={() => setReporting(null)} title="Report this message?" description="A copy of it is kept for the operators, even if it is deleted later.">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (reporting) void report(reporting);
          }}
          className="grid gap-3"
        >
          <TextAreaField label="Why (optional)" name="reason" rows={3} maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} />
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => setReporting(null)}>
              Cancel
            </Button>
            <Button type="submit" variant="danger">
              Report message
            </Button>
          </div>
        </form>
      </Dialog>
      {note ? <p role="status" className="mb-2 text-xs text-muted">{note}</p> : null}
      {sendError ? <ErrorNote>{sendError}</ErrorNote> : null}
      {caps.comment ? (
        <form onSubmit={submit} className="flex gap-2">
          <label className="sr-only" htmlFor="chat-input">
            Message
          </label>
          <input
            id="chat-input"
            className="flex-1 rounded-md border border-slate-300 bg-surface px-2 py-1 dark:border-slate-600"
            placeholder={connected ? 'Write a message' : 'Reconnecting…'}
            value={draft}
            maxLength={MAX_CHARS}
            onChange={(e) => setDraft(e.target.value)}
          />
          <button type="submit" disabled={!connected || !draft.trim()} className="rounded-md bg-brand px-3 py-1 text-white disabled:opacity-50">
            Send
          </button>
        </form>
      ) : (
        <p className="text-xs text-muted">Viewers read the chat; commenters and above write in it.</p>
      )}
    </section>
  );
}
