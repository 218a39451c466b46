// Whether a Yjs update fits a room's document model (lib/rooms/document.ts):
//   pages          a Y.Array of Y.Maps whose keys are `id` and `title` (text)
//   page:<id>      a Y.XmlFragment of Y.XmlElements and Y.XmlTexts
// An update from a socket is checked before it is applied: one that puts a
// Y.Text where a page's fragment belongs, a string in `pages`, another root
// type or a sub-document would be stored and break every later reader.
// Elements are the editor schema's nodes, text is formatted only with its
// marks, and every attribute holds what lib/rooms/editor-schema.ts allows it
// (a heading's level 1 to 6, a link's URL of an allowed scheme, …): one value
// outside it, stored, would be read by every later export and build.
// Each item of the update is placed by its parent: named in the item, or
// (for an item inserted next to another) that neighbour's parent, found in the
// update itself or in the document.
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { attributeFits, markFits, NODE_ATTRIBUTES } from './editor-schema.ts';

type ContentKind = 'map' | 'array' | 'element' | 'xmltext' | 'fragment' | 'text' | 'hook' | 'string' | 'any' | 'format' | 'embed' | 'deleted' | 'other';

function kindOfType(type: unknown): ContentKind {
  if (type instanceof Y.XmlElement) return 'element';
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

/** Where an item sits: a root by name, an element by its node name, or the kind of any other type. */
type Place = ContentKind | { root: string } | { element: string };

function placeOfType(type: unknown): Place {
  return type instanceof Y.XmlElement ? { element: type.nodeName } : kindOfType(type);
}

function placeOfContent(content: unknown): Place {
  return content instanceof Y.ContentType ? placeOfType(content.type) : kindOfContent(content);
}

const PAGE_FIELD = /^page:[A-Za-z0-9_-]{1,100}$/;
const PAGE_KEYS = new Set(['id', 'title']);

/** Why `content` may not sit in a page or an element: an element of no node the editor has. */
function unknownNode(content: unknown): string | null {
  if (!(content instanceof Y.ContentType) || !(content.type instanceof Y.XmlElement)) return null;
  return NODE_ATTRIBUTES.has(content.type.nodeName) ? null : `the editor has no "${content.type.nodeName.slice(0, 60)}" element`;
}

/** What may sit where: null when it fits, else why not. */
function misfit(parent: Place, sub: string | null, content: Y.Item['content']): string | null {
  const kind = kindOfContent(content);
  if (kind === 'deleted') return null;
  const values = content instanceof Y.ContentAny ? (content.arr as unknown[]) : [];
  if (typeof parent === 'object' && 'root' in parent) {
    if (sub !== null) return `the root "${parent.root.slice(0, 60)}" is not a map`;
    if (parent.root === 'pages') return kind === 'map' ? null : '"pages" holds only maps';
    if (PAGE_FIELD.test(parent.root)) return kind === 'element' || kind === 'xmltext' ? unknownNode(content) : `"${parent.root}" holds only XML elements and text`;
    return `the document has no "${parent.root.slice(0, 60)}"`;
  }
  if (typeof parent === 'object') {
    const name = parent.element.slice(0, 60);
    if (sub === null) {
      if (parent.element === 'mention') return 'a mention holds nothing but its attributes';
      return kind === 'element' || kind === 'xmltext' ? unknownNode(content) : 'XML elements hold only XML elements and text';
    }
    const rules = NODE_ATTRIBUTES.get(parent.element);
    if (!rules || !Object.hasOwn(rules, sub)) return `a "${name}" element has no attribute "${sub.slice(0, 60)}"`;
    return kind === 'any' && values.every((value) => attributeFits(rules, sub, value)) ? null : `the "${sub.slice(0, 60)}" of a "${name}" element is not one the editor allows`;
  }
  switch (parent) {
    case 'map':
      return sub !== null && PAGE_KEYS.has(sub) && kind === 'any' && values.every((v) => typeof v === 'string') ? null : 'a page holds only an id and a title, as text';
    case 'xmltext':
      if (sub !== null) return 'XML text has no attributes';
      if (kind === 'string') return null;
      if (content instanceof Y.ContentFormat) return markFits(content.key, content.value) ? null : `text formatted with "${content.key.slice(0, 60)}" the editor does not have, or with attributes it does not allow`;
      return 'XML text holds only text and its formatting';
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

  const placed = new Map<Y.Item, Place>();

  /** Where an item sits when its parent is named in it; undefined when it only names a neighbour; null when unknown. */
  const named = (item: Y.Item): Place | null | undefined => {
    const parent = item.parent as unknown;
    if (typeof parent === 'string') return { root: parent };
    if (parent instanceof Y.ID) {
      const holder = findInUpdate(parent) ?? findInDoc(parent);
      if (!holder) return null;
      return holder.deleted && !findInUpdate(parent) ? 'deleted' : placeOfContent(holder.content);
    }
    if (parent instanceof Y.AbstractType) {
      if (parent._item === null) return { root: Y.findRootTypeKey(parent) };
      return parent._item.deleted ? 'deleted' : placeOfType(parent);
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
    const why = misfit(parent, struct.parentSub, struct.content);
    if (why) return why;
  }
  return null;
}

// Hocuspocus frames: the document name, the message type (0 sync, 4 sync
// reply), then y-protocols' sync type (1 step 2, 2 update) and the update.
const SYNC_TYPES = new Set([0, 4]);
const UPDATE_TYPES = new Set([1, 2]);

// Each frame is read once: the model check and the log both ask for its update.
const carriedBy = new WeakMap<Uint8Array, Uint8Array | null>();

/** The Yjs update a socket frame carries, or null for any other frame (auth, awareness, sync step 1, stateless). */
export function frameUpdate(frame: Uint8Array): Uint8Array | null {
  let carried = carriedBy.get(frame);
  if (carried === undefined) carriedBy.set(frame, (carried = readFrameUpdate(frame)));
  return carried;
}

function readFrameUpdate(frame: Uint8Array): Uint8Array | null {
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
