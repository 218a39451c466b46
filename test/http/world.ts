// A real workspace with people in every role, spaces of every visibility with
// a published version and an upload, an invite link and a pending command-line
// sign-in, all built through the front server as clients build them; and one
// valid request per endpoint of the route table (`examples`), keyed by the
// endpoint's id (`spacesApi.plan`). The fuzz test mutates these requests; the
// authorization matrix sends them as each role.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import type { Endpoint } from '@/lib/schemas/endpoint.ts';
import { endpoints } from '@/lib/schemas/index.ts';
import { newId } from '@/lib/ids.ts';
import { documentPages } from '@/lib/rooms/document.ts';
import { currentRoomState } from '@/lib/rooms/document-store.ts';
import { postMessage } from '@/lib/rooms/messages.ts';
import { rawRequest, type RawAnswer } from './raw.ts';

// --- endpoint ids -------------------------------------------------------------

/**
 * Every endpoint of the table under the name its area file gives it:
 * `<export>.<key>` for each `…Api` object exported from lib/schemas/*.ts, so a
 * route added to an area, or a new area, gets an id without touching this file.
 */
export async function endpointIds(): Promise<Map<Endpoint, string>> {
  const folder = path.resolve(import.meta.dirname, '../../lib/schemas');
  const ids = new Map<Endpoint, string>();
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts'))) {
    const module = (await import(path.join(folder, file))) as Record<string, unknown>;
    for (const [name, group] of Object.entries(module)) {
      if (!name.endsWith('Api') || !group || typeof group !== 'object') continue;
      for (const [key, value] of Object.entries(group)) if (endpoints.includes(value as Endpoint)) ids.set(value as Endpoint, `${name}.${key}`);
    }
  }
  const unnamed = endpoints.filter((e) => !ids.has(e)).map((e) => `${e.method} ${e.path}`);
  if (unnamed.length) throw new Error(`Endpoints without an id (export them from a lib/schemas/*.ts object named …Api): ${unnamed.join(', ')}`);
  return ids;
}

/** `/v1/spaces/{id}/files/{path...}` with its params filled in, each segment percent-encoded. */
export function fillPath(template: string, params: Record<string, string | string[]>): string {
  return template.replace(/\{(\w+)(\.\.\.)?\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return (Array.isArray(value) ? value : [value]).map(encodeURIComponent).join('/');
  });
}

// --- people and fixtures ------------------------------------------------------

export const WORKSPACE_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
/** outsider: signed in, not a member; invited: a pending invitation, which counts for nothing. */
export const ROLES = [...WORKSPACE_ROLES, 'outsider', 'invited', 'anonymous'] as const;
export type Role = (typeof ROLES)[number];
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** Both kinds of secret: an API token (the CLI's) and a web session. */
export type Person = { id: string; handle: string; token: string; web: string };

export type SpaceKind = 'members' | 'public' | 'password';
export type RoomKind = 'room' | 'live';
export const ROOM_PREFIX: Record<RoomKind, string> = { room: 'rooms', live: 'live-spaces' };

/** A multipart/form-data body holding one file in the field "file". */
export function multipartFile(name: string, type: string, content: string | Buffer): { body: Buffer; type: string } {
  const boundary = `----atrium${Math.random().toString(36).slice(2)}`;
  const head = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: ${type}\r\n\r\n`;
  return { body: Buffer.concat([Buffer.from(head), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}
export const SPACE_PASSWORD = 'open sesame';

export const FILES = { 'index.html': '<h1>Hello</h1>\n', 'docs/guide.md': '# Guide\n' } as const;
export const sha = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');
export const manifest = () => Object.entries(FILES).map(([p, content]) => ({ path: p, sha256: sha(content), size: Buffer.byteLength(content) }));

export type CallOptions = {
  /** The caller; null or absent: anonymous. */
  as?: Person | null;
  /** Authenticate with the web session (routes for web sessions only). */
  web?: boolean;
  query?: Record<string, string>;
  body?: unknown;
  raw?: Buffer;
  headers?: Record<string, string>;
};

let addresses = 0;

export class World {
  readonly slug: string;
  people = {} as Record<Exclude<Role, 'anonymous'>, Person>;
  /** Someone else entirely, to block and unblock. */
  bystander!: Person;
  spaces = {} as Record<SpaceKind, string>;
  uploads = {} as Record<SpaceKind, string>;
  /** A comment thread of the owner's on each space. */
  comments = {} as Record<SpaceKind, string>;
  workspaceId = '';
  inviteToken = '';
  userCode = '';
  /** A room and a live space of the workspace, made by its owner, with a source each. */
  rooms = {} as Record<RoomKind, string>;
  sources = {} as Record<RoomKind, string>;
  /** A live app (join code) built from the room. */
  app = '';
  /** A webhook endpoint of the workspace, and a delivery of it. */
  webhook = '';
  webhookDelivery = '';
  private counter = 0;

  readonly origin: string;
  readonly prefix: string;

  constructor(origin: string, prefix: string) {
    this.origin = origin;
    this.prefix = prefix;
    this.slug = `${prefix}-team`;
  }

  /** A new handle, unique in this database. */
  handle(): string {
    return `${this.prefix}-${++this.counter}`;
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<RawAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    // Each request from its own address, so per-address limits (pending
    // command-line sign-ins) never make a valid request fail.
    headers['x-forwarded-for'] ??= `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses++ & 255}`;
    if (options.as) headers.authorization = `Bearer ${options.web ? options.as.web : options.as.token}`;
    const search = options.query ? `?${new URLSearchParams(options.query)}` : '';
    let body: Buffer | undefined = options.raw;
    if (options.body !== undefined) {
      body = Buffer.from(JSON.stringify(options.body));
      headers['content-type'] = 'application/json';
    }
    if (body) headers['content-length'] = String(body.byteLength);
    return rawRequest(this.origin, method, path + search, { headers, body });
  }

  /** call(), failing unless the answer is `status`. */
  async must(status: number, method: string, path: string, options: CallOptions = {}): Promise<any> {
    const answer = await this.call(method, path, options);
    if (answer.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 300)}`);
    return answer.json;
  }

  async signIn(handle = this.handle()): Promise<Person> {
    const cli = await this.must(200, 'POST', '/v1/auth/dev-login', { body: { handle, label: 'cli' } });
    const web = await this.must(200, 'POST', '/v1/auth/dev-login', { body: { handle, label: 'web' } });
    return { id: cli.user.id, handle, token: cli.token, web: web.token };
  }

  /** A new person standing in `role` towards this world's workspace (null for anonymous), so a call may change or delete them. */
  async fresh(role: Role): Promise<Person | null> {
    if (role === 'anonymous') return null;
    const person = await this.signIn();
    if (role === 'outsider') return person;
    const slug = this.slug;
    await this.must(204, 'POST', `/v1/workspaces/${slug}/members`, { as: this.people.owner, body: { handle: person.handle, role: role === 'invited' ? 'member' : role } });
    if (role !== 'invited') await this.must(204, 'POST', `/v1/workspaces/${slug}/accept`, { as: person });
    return person;
  }

  /** A new API token of `person`, and its id. */
  async newToken(person: Person): Promise<{ token: string; id: string }> {
    const { token } = await this.must(200, 'POST', '/v1/auth/dev-login', { body: { handle: person.handle, label: 'cli' } });
    const { tokens } = await this.must(200, 'GET', '/v1/tokens', { as: { ...person, token } });
    return { token, id: tokens.find((t: { current: boolean }) => t.current).id };
  }

  async inviteLink(): Promise<{ token: string; id: string }> {
    const { url, invite } = await this.must(200, 'POST', `/v1/workspaces/${this.slug}/invites`, { as: this.people.owner, body: { role: 'member' } });
    return { token: url.split('/').pop(), id: invite.id };
  }

  /** A webhook endpoint of the owner's, aimed at a closed port of this machine (nothing is sent in these tests). */
  async newWebhook(): Promise<string> {
    const { webhook } = await this.must(200, 'POST', `/v1/workspaces/${this.slug}/webhooks`, { as: this.people.owner, body: { url: 'http://127.0.0.1:9/hook', events: ['version.committed'] } });
    return webhook.id;
  }

  /** A custom domain the owner adds to the space, not verified. */
  async domain(space: SpaceKind): Promise<string> {
    const hostname = `${Math.random().toString(36).slice(2, 10)}.example.com`;
    await this.must(200, 'POST', `/v1/spaces/${this.spaces[space]}/domains`, { as: this.people.owner, body: { hostname } });
    return hostname;
  }

  async upload(space: SpaceKind, name = 'notes.txt'): Promise<string> {
    const json = await this.must(200, 'POST', `/v1/spaces/${this.spaces[space]}/uploads`, { as: this.people.owner, query: { name }, raw: Buffer.from(`notes ${Math.random()}\n`) });
    return json.id;
  }

  async comment(space: SpaceKind): Promise<string> {
    const json = await this.must(200, 'POST', `/v1/spaces/${this.spaces[space]}/comments`, { as: this.people.owner, body: { path: 'docs/guide.md', body: 'A thread', quote: 'Guide' } });
    return json.id;
  }

  /** A chat message in a room, by `author` (the owner unless given). */
  async roomMessage(kind: RoomKind, author: Person = this.people.owner): Promise<string> {
    return postMessage(this.rooms[kind], { id: author.id, handle: author.handle }, `hello ${Math.random()}`);
  }

  /** The id of a room's first page, from its stored document. */
  async roomPage(kind: RoomKind): Promise<string> {
    return documentPages(await currentRoomState(this.rooms[kind]))[0].id;
  }

  /** A named snapshot of a room's first page, written directly (the API's rate limit is not the point of a fixture). */
  async roomSnapshot(kind: RoomKind): Promise<{ pageId: string; snapshotId: string }> {
    const pageId = await this.roomPage(kind);
    const snapshotId = newId('roomSnapshot');
    await db.roomPageSnapshot.create({
      data: { id: snapshotId, roomId: this.rooms[kind], pageId, title: 'Page', content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Kept' }] }] }, markdown: 'Kept', reason: 'named', name: 'Kept' },
    });
    return { pageId, snapshotId };
  }

  /** A pending e-mail invite into a room: its id and its token. */
  async roomInvite(kind: RoomKind): Promise<{ id: string; token: string }> {
    const { invite } = await this.must(200, 'POST', `/v1/${ROOM_PREFIX[kind]}/${this.rooms[kind]}/people`, { as: this.people.owner, body: { to: `${this.handle()}@example.com`, role: 'viewer' } });
    return { id: invite.id, token: invite.url.split('/').pop() };
  }

  /** Someone added to a room by handle. */
  async roomGuest(kind: RoomKind): Promise<Person> {
    const person = await this.signIn();
    await this.must(200, 'POST', `/v1/${ROOM_PREFIX[kind]}/${this.rooms[kind]}/people`, { as: this.people.owner, body: { to: person.handle, role: 'viewer' } });
    return person;
  }

  async roomSource(kind: RoomKind): Promise<string> {
    const { body, type } = multipartFile('notes.txt', 'text/plain', `notes ${Math.random()}\n`);
    const json = await this.must(200, 'POST', `/v1/${ROOM_PREFIX[kind]}/${this.rooms[kind]}/sources`, { as: this.people.owner, raw: body, headers: { 'content-type': type } });
    return json.id;
  }

  async liveImage(): Promise<string> {
    const json = await this.must(200, 'POST', `/v1/live-spaces/${this.rooms.live}/images`, { as: this.people.owner, raw: PNG, headers: { 'content-type': 'image/png' } });
    return json.id;
  }

  /** A new space of `kind` in the world's workspace (to delete). */
  async spareSpace(kind: SpaceKind): Promise<string> {
    const space = await this.must(200, 'POST', '/v1/spaces', { as: this.people.owner, body: { workspace: this.slug, name: `spare ${kind}`, visibility: kind === 'members' ? 'members' : 'public' } });
    if (kind === 'password') await this.must(200, 'PATCH', `/v1/spaces/${space.id}`, { as: this.people.owner, body: { password: SPACE_PASSWORD } });
    return space.id;
  }

  /** A new workspace with the world's people in the same roles (to delete). */
  async spareWorkspace(): Promise<string> {
    const slug = this.handle();
    await this.must(200, 'POST', '/v1/workspaces', { as: this.people.owner, body: { slug, name: 'Spare team' } });
    await db.workspace.update({ where: { slug }, data: { plan: 'enterprise' } });
    for (const role of ['admin', 'member', 'viewer', 'invited'] as const) {
      const person = this.people[role];
      await this.must(204, 'POST', `/v1/workspaces/${slug}/members`, { as: this.people.owner, body: { handle: person.handle, role: role === 'invited' ? 'member' : role } });
      if (role !== 'invited') await this.must(204, 'POST', `/v1/workspaces/${slug}/accept`, { as: person });
    }
    return slug;
  }

  /** A new app built from the room by its owner: a preview, live, or live with a newer preview (`rebuilt`). */
  async newApp(stage: 'preview' | 'live' | 'rebuilt' | 'promoted'): Promise<string> {
    const owner = this.people.owner;
    const build = () => this.must(200, 'POST', `/v1/rooms/${this.rooms.room}/build`, { as: owner, body: id ? { appId: id } : {} });
    let id: string | undefined;
    id = (await build()).app.id as string;
    if (stage === 'preview') return id;
    await this.must(200, 'POST', `/v1/apps/${id}/live`, { as: owner, body: { access: 'code' } });
    if (stage === 'live') return id;
    await build();
    if (stage === 'promoted') await this.must(200, 'POST', `/v1/apps/${id}/promote`, { as: owner });
    return id;
  }

  async cliStart(): Promise<{ userCode: string; deviceCode: string }> {
    return this.must(200, 'POST', '/v1/auth/cli/start', { body: { label: 'laptop' } });
  }

  async build(): Promise<this> {
    // The per-address limit of pending command-line sign-ins reads
    // X-Forwarded-For only behind a trusted proxy.
    config.trustProxy = true;
    for (const role of ['owner', 'admin', 'member', 'viewer', 'outsider', 'invited'] as const) this.people[role] = await this.signIn(`${this.prefix}-${role}`);
    this.bystander = await this.signIn(`${this.prefix}-bystander`);
    const owner = this.people.owner;
    const created = await this.must(200, 'POST', '/v1/workspaces', { as: owner, body: { slug: this.slug, name: 'Fixture team' } });
    this.workspaceId = created.id;
    // Seats are not what these tests are about.
    await db.workspace.update({ where: { slug: this.slug }, data: { plan: 'enterprise' } });
    for (const role of ['admin', 'member', 'viewer', 'invited'] as const) {
      const person = this.people[role];
      await this.must(204, 'POST', `/v1/workspaces/${this.slug}/members`, { as: owner, body: { handle: person.handle, role: role === 'invited' ? 'member' : role } });
      if (role !== 'invited') await this.must(204, 'POST', `/v1/workspaces/${this.slug}/accept`, { as: person });
    }
    for (const kind of ['members', 'public', 'password'] as const) {
      const space = await this.must(200, 'POST', '/v1/spaces', { as: owner, body: { workspace: this.slug, name: `${kind} space`, visibility: kind === 'members' ? 'members' : 'public' } });
      const id = (this.spaces[kind] = space.id);
      const plan = await this.must(200, 'POST', `/v1/spaces/${id}/push/plan`, { as: owner, body: { files: manifest() } });
      for (const content of Object.values(FILES)) {
        if (plan.missing.includes(sha(content))) await this.must(204, 'PUT', `/v1/spaces/${id}/blobs/${sha(content)}`, { as: owner, raw: Buffer.from(content) });
      }
      await this.must(200, 'POST', `/v1/spaces/${id}/versions`, { as: owner, body: { files: manifest(), message: 'First' } });
      this.uploads[kind] = await this.upload(kind);
    }
    for (const kind of ['members', 'public', 'password'] as const) this.comments[kind] = await this.comment(kind);
    await this.must(200, 'PATCH', `/v1/spaces/${this.spaces.password}`, { as: owner, body: { password: SPACE_PASSWORD } });
    this.inviteToken = (await this.inviteLink()).token;
    this.userCode = (await this.cliStart()).userCode;
    for (const kind of ['room', 'live'] as const) {
      const room = await this.must(200, 'POST', `/v1/${ROOM_PREFIX[kind]}`, { as: owner, body: { workspace: this.slug, name: `A ${kind}`, template: 'notes' } });
      this.rooms[kind] = room.id;
      this.sources[kind] = await this.roomSource(kind);
    }
    this.app = await this.newApp('live');
    // Webhooks to this machine are refused unless the operator allows them.
    config.webhooksAllowPrivate = true;
    this.webhook = await this.newWebhook();
    this.webhookDelivery = (await this.must(200, 'POST', `/v1/webhooks/${this.webhook}/ping`, { as: owner })).id;
    return this;
  }
}

// --- one valid request per endpoint ---------------------------------------------

/** A request to an endpoint: its params, query and body; `as` replaces the caller (a fresh person). */
export type Example = {
  params?: Record<string, string | string[]>;
  query?: Record<string, string>;
  body?: unknown;
  raw?: Buffer;
  headers?: Record<string, string>;
  /** Send the caller's web session instead of the API token. */
  web?: boolean;
  as?: Person | null;
};

type Build = (w: World, role: Role, space: SpaceKind) => Promise<Example> | Example;

/**
 * `fresh`: the call changes or consumes its caller or target, so every call
 * builds its own (a new person, token, invitation, link or upload).
 */
export type ExampleEntry = {
  build: Build;
  fresh?: boolean;
  /** The space whose kind makes the request go deepest (the fuzz test uses it). */
  space?: SpaceKind;
};

const me = (build: Build): ExampleEntry => ({ build });
const inSpace = (extra: (w: World, space: SpaceKind) => Omit<Example, 'params'> & { params?: Record<string, string | string[]> } = () => ({})): ExampleEntry => ({
  build: (w, _role, space) => {
    const more = extra(w, space);
    return { ...more, params: { id: w.spaces[space], ...more.params } };
  },
});
const file = { path: ['docs', 'guide.md'] };

export const examples: Record<string, ExampleEntry> = {
  // accounts
  'accountsApi.devLogin': me((w) => ({ body: { handle: w.handle(), label: 'cli' } })),
  'accountsApi.me': me(() => ({})),
  'accountsApi.deleteMe': { fresh: true, build: async (w, role) => ({ as: await w.fresh(role) }) },
  'accountsApi.block': me((w) => ({ body: { userId: w.bystander.id } })),
  'accountsApi.unblock': me((w) => ({ params: { userId: w.bystander.id } })),
  'accountsApi.preferences': me(() => ({ body: { developerMode: true } })),
  'accountsApi.profile': me(() => ({ body: { name: 'A display name' } })),
  'accountsApi.handle': { fresh: true, build: async (w, role) => ({ as: await w.fresh(role), body: { handle: w.handle() } }) },
  // sign-in and tokens
  'authApi.cliStart': me(() => ({ body: { label: 'laptop' } })),
  'authApi.cliRequest': me((w) => ({ params: { userCode: w.userCode }, web: true })),
  'authApi.cliDecide': { fresh: true, build: async (w) => ({ body: { userCode: (await w.cliStart()).userCode, approve: true }, web: true }) },
  'authApi.cliPoll': { fresh: true, build: async (w) => ({ body: { deviceCode: (await w.cliStart()).deviceCode } }) },
  'authApi.tokens': me(() => ({})),
  'authApi.createToken': me(() => ({ body: { label: 'deploys' }, web: true })),
  'authApi.revokeCurrentToken': {
    fresh: true,
    build: async (w, role) => {
      const person = await w.fresh(role);
      return { as: person && { ...person, token: (await w.newToken(person)).token } };
    },
  },
  // A token of the workspace's owner: only the owner may revoke it.
  'authApi.revokeToken': { fresh: true, build: async (w) => ({ params: { id: (await w.newToken(w.people.owner)).id } }) },
  // workspaces
  'workspacesApi.list': me(() => ({})),
  'workspacesApi.create': me((w) => ({ body: { slug: w.handle(), name: 'Another team' } })),
  'workspacesApi.get': me((w) => ({ params: { slug: w.slug } })),
  'workspacesApi.update': me((w) => ({ params: { slug: w.slug }, body: { name: 'Fixture team' } })),
  // A workspace of its own per call, with the world's people in the same roles.
  'workspacesApi.remove': { fresh: true, build: async (w) => ({ params: { slug: await w.spareWorkspace() } }) },
  'workspacesApi.invite': { fresh: true, build: async (w) => ({ params: { slug: w.slug }, body: { handle: (await w.signIn()).handle, role: 'member' } }) },
  'workspacesApi.changeRole': { fresh: true, build: async (w) => ({ params: { slug: w.slug, handle: (await w.fresh('member'))!.handle }, body: { role: 'viewer' } }) },
  'workspacesApi.removeMember': { fresh: true, build: async (w) => ({ params: { slug: w.slug, handle: (await w.fresh('member'))!.handle } }) },
  'workspacesApi.listInvites': me((w) => ({ params: { slug: w.slug } })),
  'workspacesApi.createInvite': me((w) => ({ params: { slug: w.slug }, body: { role: 'member', maxUses: 5, expiresInDays: 3 } })),
  'workspacesApi.revokeInvite': { fresh: true, build: async (w) => ({ params: { slug: w.slug, id: (await w.inviteLink()).id } }) },
  'workspacesApi.previewInvite': me((w) => ({ body: { token: w.inviteToken } })),
  // Joining changes the caller: a fresh person in the role.
  'workspacesApi.acceptInvite': { fresh: true, build: async (w, role) => ({ as: await w.fresh(role), body: { token: (await w.inviteLink()).token } }) },
  'workspacesApi.accept': { fresh: true, build: async (w, role) => ({ as: await w.fresh(role), params: { slug: w.slug } }) },
  'workspacesApi.decline': { fresh: true, build: async (w, role) => ({ as: await w.fresh(role), params: { slug: w.slug } }) },
  'workspacesApi.audit': me((w) => ({ params: { slug: w.slug }, query: { limit: '10' } })),
  // spaces
  'spacesApi.list': me((w) => ({ query: { workspace: w.slug } })),
  'spacesApi.create': me((w) => ({ body: { workspace: w.slug, name: 'Another space', visibility: 'members' } })),
  'spacesApi.get': inSpace(),
  // A space of the same kind per call: deleting it must not take the fixture's.
  'spacesApi.remove': { fresh: true, build: async (w, _role, space) => ({ params: { id: await w.spareSpace(space) } }) },
  'spacesApi.patch': inSpace((_w, space) => ({ body: { name: `${space} space` } })),
  'spacesApi.head': inSpace(),
  'spacesApi.unlock': { ...inSpace(() => ({ body: { password: SPACE_PASSWORD } })), space: 'password' },
  'spacesApi.views': inSpace(() => ({ body: { path: '/index.html', version: 1, referrer: null } })),
  'spacesApi.visitors': inSpace(() => ({ query: { days: '7' } })),
  'spacesApi.plan': inSpace(() => ({ body: { files: manifest() } })),
  'spacesApi.putBlob': inSpace(() => ({ params: { sha256: sha(FILES['index.html']) }, raw: Buffer.from(FILES['index.html']) })),
  'spacesApi.commit': inSpace(() => ({ body: { files: manifest(), message: 'Again' } })),
  'spacesApi.versions': inSpace(),
  'spacesApi.aliases': inSpace(),
  'spacesApi.setAlias': inSpace(() => ({ params: { name: 'preview' }, body: { version: 1 } })),
  // Custom domains: a name of its own per call (its TXT record is never found here: 409 for those allowed).
  'spacesApi.domains': inSpace(),
  'spacesApi.addDomain': { fresh: true, build: async (w, _role, space) => ({ params: { id: w.spaces[space] }, body: { hostname: `${Math.random().toString(36).slice(2, 10)}.example.com` } }) },
  'spacesApi.verifyDomain': { fresh: true, build: async (w, _role, space) => ({ params: { id: w.spaces[space], hostname: await w.domain(space) } }) },
  'spacesApi.deleteDomain': { fresh: true, build: async (w, _role, space) => ({ params: { id: w.spaces[space], hostname: await w.domain(space) } }) },
  'spacesApi.domainCheck': me(() => ({ query: { domain: 'nothing-here.example.com' } })),
  // An alias of its own per call, made by the owner, for the caller to remove.
  'spacesApi.deleteAlias': {
    fresh: true,
    build: async (w, _role, space) => {
      const name = `gone-${Math.random().toString(36).slice(2, 8)}`;
      await w.must(200, 'PUT', `/v1/spaces/${w.spaces[space]}/aliases/${name}`, { as: w.people.owner, body: { version: 1 } });
      return { params: { id: w.spaces[space], name } };
    },
  },
  'spacesApi.version': inSpace(() => ({ params: { n: '1' } })),
  'spacesApi.compare': inSpace(() => ({ query: { base: '1', head: '1' } })),
  'spacesApi.file': inSpace(() => ({ params: file, query: { v: '1' } })),
  'spacesApi.history': inSpace(() => ({ params: file })),
  'spacesApi.download': inSpace(() => ({ params: file, query: { v: '1' } })),
  'spacesApi.downloadLink': inSpace(() => ({ params: file })),
  'spacesApi.uploads': inSpace(),
  'spacesApi.upload': inSpace(() => ({ query: { name: 'report.txt' }, raw: Buffer.from('a report\n') })),
  'spacesApi.uploadRaw': inSpace((w, space) => ({ params: { uploadId: w.uploads[space] } })),
  'spacesApi.uploadLink': inSpace((w, space) => ({ params: { uploadId: w.uploads[space] } })),
  'spacesApi.deleteUpload': { fresh: true, build: async (w, _role, space) => ({ params: { id: w.spaces[space], uploadId: await w.upload(space) } }) },
  // billing (no provider configured here: see test/billing for Stripe)
  'billingApi.state': me((w) => ({ params: { slug: w.slug } })),
  'billingApi.checkout': me((w) => ({ params: { slug: w.slug }, body: { plan: 'pro' } })),
  'billingApi.portal': me((w) => ({ params: { slug: w.slug } })),
  'billingApi.keep': me((w) => ({ params: { slug: w.slug } })),
  'billingApi.webhook': me(() => ({ raw: Buffer.from('{"id":"evt_example","object":"event","type":"customer.created","data":{"object":{}}}') })),
  // comments (on the owner's thread of each space)
  'commentsApi.list': inSpace(() => ({ query: { status: 'all', path: 'docs/guide.md' } })),
  'commentsApi.create': inSpace(() => ({ body: { path: 'docs/guide.md', body: 'A comment', quote: 'Guide' } })),
  'commentsApi.edit': { build: (w, _role, space) => ({ params: { id: w.comments[space] }, body: { body: 'An edited thread' } }), space: 'public' },
  'commentsApi.delete': { fresh: true, build: async (w, _role, space) => ({ params: { id: await w.comment(space) }, body: {} }), space: 'public' },
  'commentsApi.revisions': { build: (w, _role, space) => ({ params: { id: w.comments[space] } }), space: 'public' },
  'commentsApi.resolve': { build: (w, _role, space) => ({ params: { id: w.comments[space] } }), space: 'public' },
  'commentsApi.unresolve': { build: (w, _role, space) => ({ params: { id: w.comments[space] } }), space: 'public' },
  ...roomExamples('roomsApi', 'room'),
  ...roomExamples('liveSpacesApi', 'live'),
  'liveSpacesApi.image': me((w) => ({ params: { id: w.rooms.live }, raw: PNG, headers: { 'content-type': 'image/png' } })),
  'liveSpacesApi.imageRaw': { fresh: true, build: async (w) => ({ params: { id: w.rooms.live, imageId: await w.liveImage() } }) },
  'spacedbApi.query': inSpace(() => ({ body: { sql: 'SELECT 1 AS one' } })),
  'spacedbApi.overview': inSpace(),
  'spacedbApi.exists': inSpace(),
  'spacedbApi.guestWrites': inSpace(),
  'spacedbApi.putGuestWrites': inSpace(() => ({ body: { statements: [] } })),
  'spacedbApi.writes': inSpace(() => ({ query: { limit: '10' } })),
  'spacedbApi.export': inSpace(),
  'spacedbApi.reset': inSpace(),
  'spacedbApi.restore': inSpace(() => ({ body: { at: Date.now() } })),
  // apps (a live app of the room; lifecycle steps on a fresh app each)
  'appsApi.list': me((w) => ({ query: { workspace: w.slug } })),
  'appsApi.get': me((w) => ({ params: { id: w.app } })),
  'appsApi.patch': me((w) => ({ params: { id: w.app }, body: { name: 'Club app' } })),
  'appsApi.delete': { fresh: true, build: async (w) => ({ params: { id: await w.newApp('preview') } }) },
  'appsApi.live': { fresh: true, build: async (w) => ({ params: { id: await w.newApp('preview') }, body: { access: 'public', copyData: true } }) },
  'appsApi.promote': { fresh: true, build: async (w) => ({ params: { id: await w.newApp('rebuilt') } }) },
  'appsApi.rollback': { fresh: true, build: async (w) => ({ params: { id: await w.newApp('promoted') }, body: { deploy: 1 } }) },
  'appsApi.deploys': me((w) => ({ params: { id: w.app } })),
  'appsApi.users': me((w) => ({ params: { id: w.app } })),
  'appsApi.ownerLink': me((w) => ({ params: { id: w.app } })),
  'appsApi.export': me((w) => ({ params: { id: w.app } })),
  'searchApi.search': me(() => ({ query: { q: 'space', limit: '10' } })),
  'notificationsApi.list': me(() => ({ query: { limit: '10' } })),
  'notificationsApi.read': me(() => ({ body: { all: true } })),
  'notificationsApi.settings': me(() => ({})),
  'notificationsApi.updateSettings': me(() => ({ body: { mailOn: ['mention'] } })),
  // webhooks
  'webhooksApi.list': me((w) => ({ params: { slug: w.slug } })),
  'webhooksApi.create': me((w) => ({ params: { slug: w.slug }, body: { url: 'http://127.0.0.1:9/hook', events: ['comment.created', 'member.joined'], description: 'Chat notices' } })),
  'webhooksApi.get': me((w) => ({ params: { id: w.webhook } })),
  'webhooksApi.update': me((w) => ({ params: { id: w.webhook }, body: { description: 'Deploy notices' } })),
  'webhooksApi.remove': { fresh: true, build: async (w) => ({ params: { id: await w.newWebhook() } }) },
  'webhooksApi.ping': me((w) => ({ params: { id: w.webhook } })),
  'webhooksApi.deliveries': me((w) => ({ params: { id: w.webhook }, query: { limit: '10' } })),
  'webhooksApi.redeliver': me((w) => ({ params: { id: w.webhook, deliveryId: w.webhookDelivery } })),
};

/** A 1×1 transparent PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** The same examples for the room routes of both prefixes. */
function roomExamples(api: string, kind: RoomKind): Record<string, ExampleEntry> {
  const inRoom = (extra: (w: World) => Example | Promise<Example> = () => ({})): Build => async (w) => {
    const more = await extra(w);
    return { ...more, params: { id: w.rooms[kind], ...more.params } };
  };
  const fresh = (build: Build): ExampleEntry => ({ fresh: true, build });
  return {
    [`${api}.list`]: me((w) => ({ query: { workspace: w.slug } })),
    [`${api}.create`]: me((w) => ({ body: { workspace: w.slug, name: 'Another', template: 'brief' } })),
    [`${api}.get`]: me(inRoom()),
    [`${api}.patch`]: me(inRoom(() => ({ body: { description: 'What we do here' } }))),
    [`${api}.delete`]: fresh(async (w) => ({ params: { id: (await w.must(200, 'POST', `/v1/${ROOM_PREFIX[kind]}`, { as: w.people.owner, body: { workspace: w.slug } })).id } })),
    [`${api}.markdown`]: me(inRoom()),
    [`${api}.reportMessage`]: fresh(inRoom(async (w) => ({ params: { messageId: await w.roomMessage(kind) }, body: { reason: 'spam' } }))),
    [`${api}.deleteMessage`]: fresh(inRoom(async (w) => ({ params: { messageId: await w.roomMessage(kind) } }))),
    [`${api}.ticket`]: me(inRoom()),
    [`${api}.people`]: me(inRoom()),
    [`${api}.addPerson`]: fresh(inRoom(async (w) => ({ body: { to: (await w.signIn()).handle, role: 'commenter' } }))),
    [`${api}.changeRole`]: fresh(inRoom(async (w) => ({ params: { handle: (await w.roomGuest(kind)).handle }, body: { role: 'editor' } }))),
    [`${api}.removePerson`]: fresh(inRoom(async (w) => ({ params: { handle: (await w.roomGuest(kind)).handle } }))),
    [`${api}.revokeInvite`]: fresh(inRoom(async (w) => ({ params: { inviteId: (await w.roomInvite(kind)).id } }))),
    [`${api}.mention`]: me(inRoom((w) => ({ body: { handle: w.people.viewer.handle, pageId: 'page1' } }))),
    // Joining changes the caller: a fresh person in the role.
    [`${api}.acceptInvite`]: fresh(async (w, role) => ({ as: await w.fresh(role), body: { token: (await w.roomInvite(kind)).token } })),
    [`${api}.sources`]: me(inRoom()),
    [`${api}.upload`]: me(inRoom(() => {
      const { body, type } = multipartFile('brief.md', 'text/markdown', '# Brief\n\nShip it.\n');
      return { raw: body, headers: { 'content-type': type } };
    })),
    [`${api}.sourceRaw`]: me(inRoom((w) => ({ params: { sourceId: w.sources[kind] } }))),
    [`${api}.patchSource`]: me(inRoom((w) => ({ params: { sourceId: w.sources[kind] }, body: { hiddenFromAi: false } }))),
    [`${api}.deleteSource`]: fresh(inRoom(async (w) => ({ params: { sourceId: await w.roomSource(kind) } }))),
    [`${api}.build`]: me(inRoom(() => ({ body: { instructions: 'A small app' } }))),
    [`${api}.history`]: me(inRoom(async (w) => ({ params: { pageId: await w.roomPage(kind) } }))),
    [`${api}.nameSnapshot`]: me(inRoom(async (w) => ({ params: { pageId: await w.roomPage(kind) }, body: { name: 'Before the review' } }))),
    [`${api}.historyDiff`]: me(inRoom(async (w) => {
      const { pageId, snapshotId } = await w.roomSnapshot(kind);
      return { params: { pageId }, query: { from: snapshotId, to: 'current' } };
    })),
    [`${api}.restore`]: fresh(inRoom(async (w) => ({ params: await w.roomSnapshot(kind) }))),
  };
}

/** Whether an endpoint acts on a space (its path has the space's id). */
export const isSpaceRoute = (e: Endpoint) => e.path.startsWith('/v1/spaces/{id}');

/** The caller of an example for `role`: the example's own, else the role's person. */
export function callerOf(w: World, role: Role, example: Example): Person | null {
  if ('as' in example) return example.as ?? null;
  return role === 'anonymous' ? null : w.people[role];
}
