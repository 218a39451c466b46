// The authorization matrix: every endpoint of the route table, called with a
// valid request as each role (workspace owner, admin, member, viewer; an
// outsider who is signed in; someone only invited; anonymous) against a
// members-only space and its workspace, and against public spaces where the
// answer differs. The rules below are the spec's (publishing-api.md): a
// resource the caller may not see is 404, never 403; anonymous callers of
// routes that need a user get 401; "Needs push" and "Admin" routes refuse the
// roles without that capability with 403. A route added to the table fails
// here until it has an example request (world.ts) and a rule (below).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '@/lib/schemas/endpoint.ts';
import { endpoints } from '@/lib/schemas/index.ts';
import { useFrontServer } from '../server.ts';
import { dnsLookup } from '@/lib/spaces/domains.ts';
import { inBatches } from './raw.ts';
import { callerOf, endpointIds, examples, fillPath, ROLES, World, type Example, type Role, type SpaceKind } from './world.ts';

const server = useFrontServer();

/** 'ok': any 2xx; a number: exactly that status. */
type Outcome = 'ok' | number;
type Row = Record<Role, Outcome>;

const row = (owner: Outcome, admin: Outcome, member: Outcome, viewer: Outcome, outsider: Outcome, invited: Outcome, anonymous: Outcome): Row => ({
  owner,
  admin,
  member,
  viewer,
  outsider,
  invited,
  anonymous,
});

// Routes about the caller themselves: any signed-in person, whatever their role.
const SELF = row('ok', 'ok', 'ok', 'ok', 'ok', 'ok', 401);
// Anonymous routes, or routes whose secret is the credential (an invite link, a device code).
const ANYONE = row('ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok');
// Workspace routes. A pending invitation counts for nothing: the invitee is an outsider.
const WS_MEMBERS = row('ok', 'ok', 'ok', 'ok', 404, 404, 401);
const WS_PUSH = row('ok', 'ok', 'ok', 403, 404, 404, 401);
const WS_ADMIN = row('ok', 'ok', 403, 403, 404, 404, 401);
// Space routes on a members-only space: nobody outside the workspace learns it exists.
const VIEW_HIDDEN = row('ok', 'ok', 'ok', 'ok', 404, 404, 404);
const PUSH_HIDDEN = row('ok', 'ok', 'ok', 403, 404, 404, 401);
const ADMIN_HIDDEN = row('ok', 'ok', 403, 403, 404, 404, 401);
// Room routes (their own roles, see roomRules below).
const ROOM_VIEW = row('ok', 'ok', 'ok', 'ok', 404, 404, 401);
const ROOM_EDIT = row('ok', 'ok', 'ok', 403, 404, 404, 401);
const ROOM_MANAGE = row('ok', 'ok', 403, 403, 404, 404, 401);
// On a public space everyone may see it, so refusals are 403.
const VIEW_PUBLIC = ANYONE;
const PUSH_PUBLIC = row('ok', 'ok', 'ok', 403, 403, 403, 401);
const ADMIN_PUBLIC = row('ok', 'ok', 403, 403, 403, 403, 401);
// On a public space with a password, people outside the workspace unlock first (401).
const VIEW_LOCKED = row('ok', 'ok', 'ok', 'ok', 401, 401, 401);

// Comment routes take anonymous callers (guests), so on a members-only space they too get 404.
const COMMENT_PUSH_HIDDEN = row('ok', 'ok', 'ok', 403, 404, 404, 404);

type Rule = Row | Partial<Record<SpaceKind, Row>>;

const view: Rule = { members: VIEW_HIDDEN, public: VIEW_PUBLIC, password: VIEW_LOCKED };
// Unlocking a password only ever gives view (docs/decisions.md): push and admin stay 403.
const push: Rule = { members: PUSH_HIDDEN, public: PUSH_PUBLIC, password: PUSH_PUBLIC };
const admin: Rule = { members: ADMIN_HIDDEN, public: ADMIN_PUBLIC, password: ADMIN_PUBLIC };

/** The expected answer of every endpoint, by role (and by the space's kind for space routes). */
const rules: Record<string, Rule> = {
  'accountsApi.devLogin': ANYONE,
  'accountsApi.me': SELF,
  'accountsApi.deleteMe': SELF,
  'accountsApi.block': SELF,
  'accountsApi.unblock': SELF,
  'accountsApi.preferences': SELF,
  'accountsApi.handle': SELF,
  'accountsApi.profile': SELF,
  'authApi.cliStart': ANYONE,
  'authApi.cliRequest': SELF,
  'authApi.cliDecide': SELF,
  'authApi.cliPoll': ANYONE,
  'authApi.tokens': SELF,
  'authApi.createToken': SELF,
  'authApi.revokeCurrentToken': SELF,
  // The target is the owner's token: anyone else's id is not found.
  'authApi.revokeToken': row('ok', 404, 404, 404, 404, 404, 401),
  'workspacesApi.list': SELF,
  'workspacesApi.create': SELF,
  'workspacesApi.get': WS_MEMBERS,
  'workspacesApi.update': WS_ADMIN,
  'workspacesApi.remove': WS_ADMIN,
  'workspacesApi.invite': WS_ADMIN,
  'workspacesApi.changeRole': WS_ADMIN,
  'workspacesApi.removeMember': WS_ADMIN,
  'workspacesApi.listInvites': WS_ADMIN,
  'workspacesApi.createInvite': WS_ADMIN,
  'workspacesApi.revokeInvite': WS_ADMIN,
  'workspacesApi.audit': WS_ADMIN,
  'workspacesApi.previewInvite': ANYONE,
  // Anyone signed in joins through a link; members are told they already are.
  'workspacesApi.acceptInvite': SELF,
  // Accepting is idempotent for members; with no invitation there is nothing to accept.
  'workspacesApi.accept': row('ok', 'ok', 'ok', 'ok', 404, 'ok', 401),
  'workspacesApi.decline': row(404, 404, 404, 404, 404, 'ok', 401),
  // Lists what the caller may see (checked below: never the members-only space to outsiders).
  'spacesApi.list': SELF,
  'spacesApi.create': WS_PUSH,
  'spacesApi.get': { members: VIEW_HIDDEN, public: VIEW_PUBLIC },
  'spacesApi.patch': admin,
  'spacesApi.remove': admin,
  'spacesApi.head': { members: VIEW_HIDDEN, public: VIEW_PUBLIC },
  // Only a public space with a password unlocks; members of a members-only space have nothing to unlock.
  'spacesApi.unlock': { members: row(400, 400, 400, 400, 404, 404, 404), password: ANYONE },
  'spacesApi.views': { members: VIEW_HIDDEN, public: VIEW_PUBLIC },
  'spacesApi.visitors': push,
  'spacesApi.plan': push,
  'spacesApi.putBlob': push,
  'spacesApi.commit': push,
  'spacesApi.versions': view,
  'spacesApi.aliases': view,
  'spacesApi.domains': admin,
  'spacesApi.addDomain': admin,
  // Those allowed reach the check, which finds nothing at the name here.
  'spacesApi.verifyDomain': { members: row(409, 409, 403, 403, 404, 404, 401), public: row(409, 409, 403, 403, 403, 403, 401), password: row(409, 409, 403, 403, 403, 403, 401) },
  'spacesApi.deleteDomain': admin,
  'spacesApi.domainCheck': row(404, 404, 404, 404, 404, 404, 404),
  'spacesApi.setAlias': push,
  'spacesApi.deleteAlias': push,
  'spacesApi.version': view,
  'spacesApi.compare': view,
  'spacesApi.file': view,
  'spacesApi.history': view,
  'spacesApi.download': view,
  'spacesApi.downloadLink': view,
  'spacesApi.uploads': view,
  'spacesApi.upload': push,
  'spacesApi.uploadRaw': view,
  'spacesApi.uploadLink': view,
  'spacesApi.deleteUpload': push,
  'billingApi.state': WS_MEMBERS,
  // Owners and admins pass the permission check and learn billing is not set
  // up (400: no BILLING_PROVIDER_SECRET_KEY on this server); test/billing runs them against Stripe.
  'billingApi.checkout': row(400, 400, 403, 403, 404, 404, 401),
  'billingApi.portal': row(400, 400, 403, 403, 404, 404, 401),
  'billingApi.keep': row(400, 400, 403, 403, 404, 404, 401),
  // No BILLING_PROVIDER_WEBHOOK_SECRET here: no webhook, whoever asks.
  'billingApi.webhook': row(404, 404, 404, 404, 404, 404, 404),
  // Comments: the fixture spaces take no guest comments, so anonymous callers are asked to sign in.
  'commentsApi.list': view,
  'commentsApi.create': {
    members: row('ok', 'ok', 'ok', 'ok', 404, 404, 404),
    public: row('ok', 'ok', 'ok', 'ok', 403, 403, 401),
    password: row('ok', 'ok', 'ok', 'ok', 403, 403, 401),
  },
  // The owner's thread: only its author edits it.
  'commentsApi.edit': {
    members: row('ok', 403, 403, 403, 404, 404, 404),
    public: row('ok', 403, 403, 403, 403, 403, 403),
    password: row('ok', 403, 403, 403, 401, 401, 401),
  },
  // The author or anyone who can push.
  'commentsApi.delete': { members: COMMENT_PUSH_HIDDEN, public: PUSH_PUBLIC, password: row('ok', 'ok', 'ok', 403, 401, 401, 401) },
  'commentsApi.revisions': view,
  'commentsApi.resolve': { members: COMMENT_PUSH_HIDDEN, public: PUSH_PUBLIC, password: row('ok', 'ok', 'ok', 403, 401, 401, 401) },
  'commentsApi.unresolve': { members: COMMENT_PUSH_HIDDEN, public: PUSH_PUBLIC, password: row('ok', 'ok', 'ok', 403, 401, 401, 401) },
  ...roomRules('roomsApi'),
  ...roomRules('liveSpacesApi'),
  'liveSpacesApi.image': ROOM_EDIT,
  'liveSpacesApi.imageRaw': ROOM_VIEW,
  'spacedbApi.query': view,
  'spacedbApi.overview': view,
  'spacedbApi.exists': view,
  'spacedbApi.guestWrites': push,
  'spacedbApi.putGuestWrites': push,
  'spacedbApi.writes': push,
  'spacedbApi.export': push,
  'spacedbApi.reset': admin,
  'spacedbApi.restore': admin,
  // Apps take their room's roles (the fixture app is in the workspace's room).
  'appsApi.list': SELF,
  'appsApi.get': ROOM_VIEW,
  'appsApi.patch': ROOM_MANAGE,
  'appsApi.delete': ROOM_MANAGE,
  'appsApi.live': ROOM_MANAGE,
  'appsApi.promote': ROOM_MANAGE,
  'appsApi.rollback': ROOM_MANAGE,
  'appsApi.deploys': ROOM_VIEW,
  'appsApi.users': ROOM_MANAGE,
  'appsApi.ownerLink': ROOM_EDIT,
  'appsApi.export': ROOM_MANAGE,
  // Anyone signed in searches; what they find is test/search's subject.
  'searchApi.search': SELF,
  // Everyone has an inbox of their own; another's notification is 404 (test/notifications).
  'notificationsApi.list': SELF,
  'notificationsApi.read': SELF,
  'notificationsApi.settings': SELF,
  'notificationsApi.updateSettings': SELF,
  'webhooksApi.list': WS_ADMIN,
  'webhooksApi.create': WS_ADMIN,
  'webhooksApi.get': WS_ADMIN,
  'webhooksApi.update': WS_ADMIN,
  'webhooksApi.remove': WS_ADMIN,
  'webhooksApi.ping': WS_ADMIN,
  'webhooksApi.deliveries': WS_ADMIN,
  'webhooksApi.redeliver': WS_ADMIN,
};

// Room routes, on a room of the workspace with no link access: workspace
// owners and admins are the room's owners, members its editors, viewers its
// commenters (docs/decisions.md); nobody else learns the room exists.
function roomRules(api: string): Record<string, Rule> {
  return {
    [`${api}.list`]: SELF,
    [`${api}.create`]: WS_PUSH,
    [`${api}.get`]: ROOM_VIEW,
    [`${api}.patch`]: ROOM_MANAGE,
    [`${api}.delete`]: ROOM_MANAGE,
    [`${api}.markdown`]: ROOM_VIEW,
    [`${api}.reportMessage`]: ROOM_VIEW,
    // The message is the owner's: its author, or those who manage.
    [`${api}.deleteMessage`]: ROOM_MANAGE,
    [`${api}.ticket`]: ROOM_VIEW,
    [`${api}.people`]: ROOM_VIEW,
    [`${api}.addPerson`]: ROOM_MANAGE,
    [`${api}.changeRole`]: ROOM_MANAGE,
    [`${api}.removePerson`]: ROOM_MANAGE,
    [`${api}.revokeInvite`]: ROOM_MANAGE,
    // Those who edit the document mention its people.
    [`${api}.mention`]: ROOM_EDIT,
    // The link is the credential: anyone signed in who holds it joins.
    [`${api}.acceptInvite`]: SELF,
    [`${api}.sources`]: ROOM_VIEW,
    // Commenters (workspace viewers) may attach sources.
    [`${api}.upload`]: ROOM_VIEW,
    [`${api}.sourceRaw`]: ROOM_VIEW,
    [`${api}.patchSource`]: ROOM_EDIT,
    // The source is the owner's: its uploader, or editors.
    [`${api}.deleteSource`]: ROOM_EDIT,
    [`${api}.build`]: ROOM_EDIT,
    // History: those who see the room read it; those who edit the document keep and restore versions.
    [`${api}.history`]: ROOM_VIEW,
    [`${api}.historyDiff`]: ROOM_VIEW,
    [`${api}.nameSnapshot`]: ROOM_EDIT,
    [`${api}.restore`]: ROOM_EDIT,
  };
}

/**
 * Rules that one example per endpoint cannot show: the same endpoint called
 * another way. Each builds its own fixtures, so none changes the next.
 */
const variants: { name: string; id: string; rule: Row; build: (w: World, role: Role) => Promise<Example> }[] = [
  {
    // Any member may leave (an owner too, while another owner remains); an
    // invitee is no member yet and declines instead.
    name: 'removing oneself (leaving)',
    id: 'workspacesApi.removeMember',
    rule: row('ok', 'ok', 'ok', 'ok', 404, 404, 401),
    build: async (w, role) => {
      const me = await w.fresh(role);
      return { as: me, params: { slug: w.slug, handle: me?.handle ?? w.people.member.handle } };
    },
  },
  {
    name: 'with an API token instead of a web session',
    id: 'authApi.cliRequest',
    rule: row(403, 403, 403, 403, 403, 403, 401),
    build: async (w) => ({ params: { userCode: w.userCode } }),
  },
  {
    name: 'with an API token instead of a web session',
    id: 'authApi.cliDecide',
    rule: row(403, 403, 403, 403, 403, 403, 401),
    build: async (w) => ({ body: { userCode: (await w.cliStart()).userCode, approve: true } }),
  },
  {
    // Only owners make owners, so an admin's attempt is refused like a member's.
    name: 'inviting an owner',
    id: 'workspacesApi.invite',
    rule: row('ok', 403, 403, 403, 404, 404, 401),
    build: async (w) => ({ params: { slug: w.slug }, body: { handle: (await w.signIn()).handle, role: 'owner' } }),
  },
  {
    name: 'making an owner link',
    id: 'workspacesApi.createInvite',
    rule: row('ok', 403, 403, 403, 404, 404, 401),
    build: async (w) => ({ params: { slug: w.slug }, body: { role: 'owner' } }),
  },
  {
    name: 'removing an owner',
    id: 'workspacesApi.removeMember',
    rule: row('ok', 403, 403, 403, 404, 404, 401),
    build: async (w) => ({ params: { slug: w.slug, handle: (await w.fresh('owner'))!.handle } }),
  },
];

const matches = (outcome: Outcome, status: number) => (outcome === 'ok' ? status >= 200 && status < 300 : status === outcome);

let world: World;
let ids: Map<Endpoint, string>;

beforeAll(async () => {
  // Verifying a domain looks up its TXT record: here at a DNS server that refuses at once.
  dnsLookup.servers = ['127.0.0.1:9'];
  ids = await endpointIds();
  world = await new World(server.origin, 'az').build();
}, 60_000);

describe('the authorization matrix', () => {
  it('has an example request and a rule for every endpoint of the route table, and none for routes that are gone', () => {
    const all = endpoints.map((e) => ids.get(e)!);
    expect(all.filter((id) => !examples[id]).map((id) => `${id}: no example request in test/http/world.ts`)).toEqual([]);
    expect(all.filter((id) => !rules[id]).map((id) => `${id}: no rule in test/http/authorization.test.ts`)).toEqual([]);
    expect(Object.keys(rules).filter((id) => !all.includes(id))).toEqual([]);
    expect(Object.keys(examples).filter((id) => !all.includes(id))).toEqual([]);
  });

  it('answers every endpoint as the spec says for every role, and shows outsiders nothing of a members-only space', async () => {
    type Call = { id: string; endpoint: Endpoint; role: Role; space: SpaceKind; expected: Outcome };
    const calls: Call[] = [];
    for (const endpoint of endpoints) {
      const id = ids.get(endpoint)!;
      const rule = rules[id];
      if (!rule || !examples[id]) continue; // reported by the test above
      const bySpace = ('owner' in rule ? { members: rule } : rule) as Partial<Record<SpaceKind, Row>>;
      for (const [space, expected] of Object.entries(bySpace) as [SpaceKind, Row][]) {
        for (const role of ROLES) calls.push({ id, endpoint, role, space, expected: expected[role] });
      }
    }
    const hidden = [world.spaces.members, world.uploads.members];
    const problems = await inBatches(calls, 8, async (c) => {
      const example = await examples[c.id].build(world, c.role, c.space);
      const target = fillPath(c.endpoint.path, example.params ?? {});
      const answer = await world.call(c.endpoint.method, target, {
        as: callerOf(world, c.role, example),
        web: example.web,
        query: example.query,
        body: example.body,
        raw: example.raw,
        headers: example.headers,
      });
      const where = `${c.id} as ${c.role}${'owner' in rules[c.id] ? '' : ` on the ${c.space} space`}: ${c.endpoint.method} ${target}`;
      if (!matches(c.expected, answer.status)) return `${where}: expected ${c.expected}, got ${answer.status} ${answer.text.slice(0, 200)}`;
      const stranger = c.role === 'outsider' || c.role === 'invited' || c.role === 'anonymous';
      if (stranger && answer.status < 300 && hidden.some((secret) => answer.text.includes(secret))) {
        return `${where}: a ${answer.status} answer names the members-only space: ${answer.text.slice(0, 200)}`;
      }
      return null;
    });
    console.log(`authorization matrix: ${calls.length} calls`);
    expect(problems.filter(Boolean)).toEqual([]);
  }, 120_000);

  it('answers the variants of endpoints as the spec says: leaving, web-session routes with an API token, owners made only by owners', async () => {
    const byId = new Map([...ids].map(([endpoint, id]) => [id, endpoint]));
    const calls = variants.flatMap((variant) => ROLES.map((role) => ({ variant, role })));
    const problems = await inBatches(calls, 8, async ({ variant, role }) => {
      const endpoint = byId.get(variant.id)!;
      const example = await variant.build(world, role);
      const target = fillPath(endpoint.path, example.params ?? {});
      const answer = await world.call(endpoint.method, target, { as: callerOf(world, role, example), web: example.web, query: example.query, body: example.body });
      const expected = variant.rule[role];
      return matches(expected, answer.status) ? null : `${variant.id}, ${variant.name}, as ${role}: ${endpoint.method} ${target}: expected ${expected}, got ${answer.status} ${answer.text.slice(0, 200)}`;
    });
    expect(problems.filter(Boolean)).toEqual([]);
  });

  it("answers a member removed from the workspace as an outsider on every room, live-space and app route, though they owned the rooms", async () => {
    // The room grant a creator holds (owner), in the world's room and live space, then removal.
    const removed = (await world.fresh('member'))!;
    for (const kind of ['room', 'live'] as const) {
      const prefix = kind === 'room' ? 'rooms' : 'live-spaces';
      await world.must(204, 'PATCH', `/v1/${prefix}/${world.rooms[kind]}/people/${removed.handle}`, { as: world.people.owner, body: { role: 'owner' } });
    }
    await world.must(204, 'DELETE', `/v1/workspaces/${world.slug}/members/${removed.handle}`, { as: world.people.admin });
    const hidden = endpoints.flatMap((endpoint) => {
      const id = ids.get(endpoint)!;
      const rule = rules[id] as Row;
      return /^(rooms|liveSpaces|apps)Api\./.test(id) && rule.outsider === 404 ? [{ id, endpoint }] : [];
    });
    expect(hidden.length).toBeGreaterThan(30);
    const problems = await inBatches(hidden, 8, async ({ id, endpoint }) => {
      const example = await examples[id].build(world, 'outsider', 'members');
      const target = fillPath(endpoint.path, example.params ?? {});
      const answer = await world.call(endpoint.method, target, { as: removed, query: example.query, body: example.body, raw: example.raw, headers: example.headers });
      return answer.status === 404 ? null : `${id} as the removed member: ${endpoint.method} ${target}: expected 404, got ${answer.status} ${answer.text.slice(0, 200)}`;
    });
    expect(problems.filter(Boolean)).toEqual([]);
  });
});
