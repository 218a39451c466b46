// The socket contract is defined once (lib/schemas/socket.ts): docs/realtime.md
// and /asyncapi.json come from it, and a message the server sends parses.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Parser } from '@asyncapi/parser';
import { describe, expect, it } from 'vitest';
import { asyncApiDocument, withSocketTables } from '@/server/http/asyncapi.ts';
import { clientMessages, parseClientMessage, serverMessage, serverMessages } from '@/lib/schemas/socket.ts';

describe('the socket contract', () => {
  it('is what docs/realtime.md says (node scripts/socket-docs.ts rewrites it)', async () => {
    const markdown = await readFile(path.resolve(import.meta.dirname, '../../docs/realtime.md'), 'utf8');
    expect(markdown).toBe(withSocketTables(markdown));
    for (const kind of [...Object.keys(clientMessages), ...Object.keys(serverMessages)]) expect(markdown).toContain(`| \`${kind}\` |`);
  });

  it('is a valid AsyncAPI 3.0 document with every message, a live space refusing suggestions, and the limits the server enforces', async () => {
    const document = asyncApiDocument('https://atrium.acme.test') as any;
    const { diagnostics } = await new Parser().parse(JSON.stringify(document));
    // Severity 0 is an error, 1 a warning.
    expect(diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`)).toEqual([]);
    expect(document.servers.atrium).toMatchObject({ host: 'atrium.acme.test', protocol: 'wss' });
    const names = Object.values(document.components.messages).map((m: any) => m.name);
    expect(names.sort()).toEqual([...Object.keys(clientMessages), ...Object.keys(serverMessages)].sort());
    // A live space answers every ai.suggest with ai.error, and so never sends ai.suggestion.
    const live = Object.keys(document.channels.liveSpace.messages);
    expect(live).toEqual(expect.arrayContaining(['AiSuggest', 'AiError']));
    expect(live).not.toContain('AiSuggestion');
    expect(Object.keys(document.channels.room.messages)).toContain('AiSuggestion');
    expect(document.components.messages.ChatSend.payload.schema.properties.body).toMatchObject({ minLength: 1, maxLength: 4000 });
  });

  it('reads client messages strictly and says what is wrong', () => {
    expect(parseClientMessage('{"kind":"chat.send","body":"hi","id":"c1"}')).toEqual({ ok: true, message: { kind: 'chat.send', body: 'hi', id: 'c1' } });
    expect(parseClientMessage('not json')).toMatchObject({ ok: false, error: 'Stateless messages are JSON.' });
    expect(parseClientMessage('{"kind":"hello"}')).toMatchObject({ ok: false, error: 'Unknown message kind "hello".' });
    expect(parseClientMessage('null')).toMatchObject({ ok: false, error: 'Unknown message kind null.' });
    expect(parseClientMessage('{"kind":"chat.send","body":5,"id":"c2"}')).toMatchObject({ ok: false, kind: 'chat.send', id: 'c2' });
    expect(parseClientMessage('{"kind":"ai.suggest","pageId":""}')).toMatchObject({ ok: false, kind: 'ai.suggest' });
    expect(parseClientMessage('{"kind":"__proto__"}')).toMatchObject({ ok: false, error: 'Unknown message kind "__proto__".' });
    expect(parseClientMessage('{"kind":"toString"}')).toMatchObject({ ok: false, error: 'Unknown message kind "toString".' });
  });

  it('types what the server sends', () => {
    expect(serverMessage.safeParse({ kind: 'changed', what: 'people' }).success).toBe(true);
    expect(serverMessage.safeParse({ kind: 'changed', what: 'everything' }).success).toBe(false);
  });
});

it('leaves realtime/ as wiring: no database client there, only lib/rooms and lib/access', async () => {
  const dir = path.resolve(import.meta.dirname, '../../realtime');
  for (const file of await readdir(dir)) {
    const source = await readFile(path.join(dir, file), 'utf8');
    expect(source, file).not.toMatch(/from '\.\.\/lib\/db\/client\.ts'|\bdb\.\w+\.(find|create|update|delete|upsert)|\$queryRaw|\$executeRaw/);
  }
});
