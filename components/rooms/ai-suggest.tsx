'use client';

import type { HocuspocusProvider } from '@hocuspocus/provider';
import type { Editor, JSONContent } from '@tiptap/react';
import { useCallback, useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { readMessage, sendMessage } from './connection.ts';

/** Characters before the cursor sent with a request (the server keeps at most 1,000). */
const CONTEXT_CHARS = 1000;

export type AiSuggestHandle = { ask: () => void };


/**
 * "Suggest" (or Ctrl/Cmd+J in the editor): asks the server for a continuation
 * at the cursor (`ai.suggest` on the socket) and shows the answer to insert or
 * dismiss. Nothing reaches the document unless the person inserts it. Shown
 * only when the server has AI, the room has aiSuggest on and the person edits.
 */
export function AiSuggest({ editor, provider, pageId, ref }: { editor: Editor | null; provider: HocuspocusProvider; pageId: string; ref?: Ref<AiSuggestHandle> }) {
  const [pending, setPending] = useState<string | null>(null);
  const [suggestion, setSuggestion] = useState<{ text: string; at: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const counter = useRef(0);
  const at = useRef(0);
  const waiting = useRef<string | null>(null);

  useEffect(() => {
    const onStateless = ({ payload }: { payload: string }) => {
      const answer = readMessage(payload);
      // Only the answer to this editor's latest request (another page's is ignored).
      if (!answer || (answer.kind !== 'ai.suggestion' && answer.kind !== 'ai.error') || answer.id === null || answer.id !== waiting.current) return;
      waiting.current = null;
      setPending(null);
      if (answer.kind === 'ai.suggestion') setSuggestion({ text: answer.text, at: at.current });
      else setError(answer.message);
    };
    provider.on('stateless', onStateless);
    return () => void provider.off('stateless', onStateless);
  }, [provider]);

  const ask = useCallback(() => {
    if (!editor || pending) return;
    const { from } = editor.state.selection;
    at.current = from;
    counter.current += 1;
    const id = `ai${counter.current}`;
    setError(null);
    setSuggestion(null);
    waiting.current = id;
    setPending(id);
    sendMessage(provider, { kind: 'ai.suggest', id, pageId, cursorContext: editor.state.doc.textBetween(Math.max(0, from - CONTEXT_CHARS), from, '\n') });
  }, [editor, pending, pageId, provider]);

  useImperativeHandle(ref, () => ({ ask }), [ask]);

  const insert = () => {
    if (!editor || !suggestion) return;
    // As text nodes and paragraphs, never parsed as HTML.
    const parts = suggestion.text.split(/\n{2,}/).map((part) => part.replace(/\n/g, ' ').trim()).filter(Boolean);
    const content: JSONContent[] = parts.length === 1 ? [{ type: 'text', text: parts[0] }] : parts.map((part) => ({ type: 'paragraph', content: [{ type: 'text', text: part }] }));
    const position = Math.min(suggestion.at, editor.state.doc.content.size);
    editor.chain().focus().insertContentAt(position, content).run();
    setSuggestion(null);
  };

  return (
    <div className="mb-2 text-sm">
      <Button type="button" variant="secondary" size="sm" onClick={ask} disabled={!editor || pending !== null} title="Suggest a continuation at the cursor (Ctrl/Cmd+J)">
        {pending ? 'Suggesting…' : 'Suggest'}
      </Button>
      {error ? (
        <p role="alert" className="mt-2 text-danger">
          {error}
        </p>
      ) : null}
      {suggestion ? (
        <div role="region" aria-label="AI suggestion" className="mt-2 rounded-md border border-indigo-200 bg-indigo-50 p-3 dark:border-indigo-800 dark:bg-indigo-950">
          <p className="whitespace-pre-wrap">{suggestion.text}</p>
          <div className="mt-2 flex gap-2">
            <Button type="button" size="sm" onClick={insert}>
              Insert
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setSuggestion(null)}>
              Dismiss
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
