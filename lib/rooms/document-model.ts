// Whether a Yjs update fits a room's document model (lib/rooms/document.ts):
//   pages          a Y.Array of Y.Maps whose keys are `id` and `title` (text)
//   page:<id>      a Y.XmlFragment of Y.XmlElements and Y.XmlTexts
// An update from a socket is checked before it is applied: one that puts a
// Y.Text where a page's fragment belongs, a string in `pages`, another root
// type or a sub-document would be stored and break every later reader.
// A mention (an atom, lib/rooms/editor-schema.ts) holds nothing but a user id
// and a handle, since the export and the notifications read them as such.
// Each item of the update is placed by its parent: named in the item, or
// (for an item inserted next to another) that neighbour's parent, found in the
// update itself or in the document.
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { HANDLE_PATTERN } from '../schemas/common.ts';

type ContentKind = 'map' | 'array' | 'element' | 'mention' | 'xmltext' | 'fragment' | 'text' | 'hook' | 'string' | 'any' | 'format' | 'embed' | 'deleted' | 'other';

function kindOfType(type: unknown): ContentKind {
  if (type instanceof Y.XmlElement) return type.nodeName === 'mention' ? 'mention' : 'element';
  if (type instanceof Y.XmlText) return 'xmltext';
  if (type instanceof Y.XmlHook) return 'hook';
  if (type instanceof Y.XmlFragment) return 'fragment';
  if (type instanceof Y.Text) return 'text';
  if (type instanceof Y.Map) return 'map';
  if (type instanceof Y.Array) return 'array';
  return 'other';
}

function kindOfContent(content: unknown): ContentKind {
  if (content instanceof Y.ContentType) return kindOfType(content.type);
  if (content instanceof Y.ContentString) return 'string';
  if (content instanceof Y.ContentAny) return 'any';
  if (content instanceof Y.ContentFormat) return 'format';
  if (content instanceof Y.ContentEmbed) return 'embed';
  if (content instanceof Y.ContentDeleted) return 'deleted';
  return 'other';
}

const PAGE_FIELD = /^page:[A-Za-z0-9_-]{1,100}$/;
const PAGE_KEYS = new Set(['id', 'title']);
const MENTION_ATTRIBUTES: Record<string, (value: string) => boolean> = {
  id: (value) => value.length >= 1 && value.length <= 100,
  handle: (value) => HANDLE_PATTERN.test(value),
};

/** What may sit where: null when it fits, else why not. */
function misfit(parent: ContentKind | { root: string }, sub: string | null, content: ContentKind, value: unknown): string | null {
  if (content === 'deleted') return null;
  if (typeof parent === 'object') {
    if (sub !== null) return `the root "${parent.root.slice(0, 60)}" is not a map`;
    if (parent.root === 'pages') return content === 'map' ? null : '"pages" holds only maps';
    if (PAGE_FIELD.test(parent.root)) return content === 'element' || content === 'xmltext' ? null : `"${parent.root}" holds only XML elements and text`;
    return `the document has no "${parent.root.slice(0, 60)}"`;
  }
  switch (parent) {
    case 'map':
      return sub !== null && PAGE_KEYS.has(sub) && content === 'any' && (value as unknown[]).every((v) => typeof v === 'string') ? null : 'a page holds only an id and a title, as text';
    case 'element':
      if (sub !== null) return content === 'any' ? null : 'XML attributes are plain values';
      return content === 'element' || content === 'mention' || content === 'xmltext' ? null : 'XML elements hold only XML elements and text';
    case 'mention': {
      const valid = sub === null ? undefined : MENTION_ATTRIBUTES[sub];
      const values = value as unknown[];
      return valid && content === 'any' && values.every((v) => typeof v === 'string' && valid(v)) ? null : 'a mention holds only a user id and a handle';
    }
    case 'xmltext':
      if (sub !== null) return content === 'any' ? null : 'XML attributes are plain values';
      return content === 'string' || content === 'format' || content === 'embed' ? null : 'XML text holds only text';
    case 'deleted':
      return null;
    default:
      return 'content under a type the document does not use';
  }
}

/** The update's reason not to be applied to `doc`, or null when it fits the model. */
export function updateMisfit(doc: Y.Doc, update: Uint8Array): string | null {
  let structs: ReturnType<typeof Y.decodeUpdate>['structs'];
  try {
    structs = Y.decodeUpdate(update).structs;
  } catch {
    return 'the update cannot be read';
  }
  // Per client, in clock order (as decodeUpdate gives them): found by binary search, so a large paste stays linear-ish.
  const inUpdate = new Map<number, Y.Item[]>();
  for (const struct of structs) if (struct instanceof Y.Item) (inUpdate.get(struct.id.client) ?? inUpdate.set(struct.id.client, []).get(struct.id.client)!).push(struct);
  const findInUpdate = (id: Y.ID): Y.Item | null => {
    const items = inUpdate.get(id.client);
    if (!items) return null;
    let low = 0;
    let high = items.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const item = items[middle];
      if (id.clock < item.id.clock) high = middle - 1;
      else if (id.clock >= item.id.clock + item.length) low = middle + 1;
      else return item;
    }
    return null;
  };
  const findInDoc = (id: Y.ID): Y.Item | null => {
    const state = doc.store.clients.get(id.client);
    if (!state || state.length === 0 || id.clock >= state[state.length - 1].id.clock + state[state.length - 1].length) return null;
    const found = Y.getItem(doc.store, id);
    return found instanceof Y.Item ? found : null;
  };

  type Place = ContentKind | { root: string };
  const placed = new Map<Y.Item, Place>();

  /** Where an item sits when its parent is named in it; undefined when it only names a neighbour; null when unknown. */
  const named = (item: Y.Item): Place | null | undefined => {
    const parent = item.parent as unknown;
    if (typeof parent === 'string') return { root: parent };
    if (parent instanceof Y.ID) {
      const holder = findInUpdate(parent) ?? findInDoc(parent);
      if (!holder) return null;
      return holder.deleted && !findInUpdate(parent) ? 'deleted' : kindOfContent(holder.content);
    }
    if (parent instanceof Y.AbstractType) {
      if (parent._item === null) return { root: Y.findRootTypeKey(parent) };
      return parent._item.deleted ? 'deleted' : kindOfType(parent);
    }
    return undefined;
  };

  /**
   * The parent of an item of the update, as a root name or the kind of the
   * type it sits in. An item inserted next to another names only that
   * neighbour: it shares the neighbour's parent and key. Chains of neighbours
   * (a run of typing) are walked, not recursed.
   */
  const parentOf = (item: Y.Item): Place | null => {
    const chain: Y.Item[] = [];
    const seen = new Set<Y.Item>();
    let current = item;
    let place: Place | null | undefined;
    for (;;) {
      const known = placed.get(current);
      if (known) {
        place = known;
        break;
      }
      place = named(current);
      if (place !== undefined) break;
      chain.push(current);
      seen.add(current);
      const neighbour = current.origin ?? current.rightOrigin;
      const next = neighbour ? (findInUpdate(neighbour) ?? findInDoc(neighbour)) : null;
      if (!next || seen.has(next)) return null;
      current = next;
    }
    if (place === null) return null;
    for (let i = chain.length - 1; i >= 0; i--) {
      const next = i === chain.length - 1 ? current : chain[i + 1];
      if (chain[i].parentSub === null) chain[i].parentSub = next.parentSub;
      placed.set(chain[i], place);
    }
    placed.set(item, place);
    return place;
  };

  for (const struct of structs) {
    if (!(struct instanceof Y.Item)) continue;
    if (struct.content instanceof Y.ContentDoc) return 'sub-documents are not part of a room';
    const parent = parentOf(struct);
    if (parent === null) return 'an item whose place in the document is unknown';
    const content = kindOfContent(struct.content);
    const why = misfit(parent, struct.parentSub, content, struct.content instanceof Y.ContentAny ? struct.content.arr : []);
    if (why) return why;
  }
  return null;
}

// Hocuspocus frames: the document name, the message type (0 sync, 4 sync
// reply), then y-protocols' sync type (1 step 2, 2 update) and the update.
const SYNC_TYPES = new Set([0, 4]);
const UPDATE_TYPES = new Set([1, 2]);

/** The Yjs update a socket frame carries, or null for any other frame (auth, awareness, sync step 1, stateless). */
export function frameUpdate(frame: Uint8Array): Uint8Array | null {
  try {
    const decoder = decoding.createDecoder(frame);
    decoding.readVarString(decoder);
    if (!SYNC_TYPES.has(decoding.readVarUint(decoder))) return null;
    if (!UPDATE_TYPES.has(decoding.readVarUint(decoder))) return null;
    return decoding.readVarUint8Array(decoder);
  } catch {
    return null;
  }
}
