// The nodes and marks a room's pages may hold, in one list that the web editor
// (components/rooms/room-editor.tsx) and the server (Markdown export, builds,
// templates: lib/rooms/document.ts) both use, so that what one writes the
// other can read: StarterKit's text blocks, lists and marks, checklists,
// tables, image blocks and @mentions of the room's people, and what each of
// their attributes may hold.
import { combineTransactionSteps, Extension, getChangedRanges, mergeAttributes, Node } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import { TableKit } from '@tiptap/extension-table';
import { Plugin } from '@tiptap/pm/state';
import StarterKit from '@tiptap/starter-kit';
import { HANDLE_PATTERN } from '../schemas/common.ts';

/**
 * An @mention of one of the room's people: an inline atom holding their user
 * id and handle, shown as a pill `@handle`. The id keeps it theirs if they
 * change their handle; the handle is what readers and the export see.
 */
export const Mention = Node.create({
  name: 'mention',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: false,
  addAttributes() {
    return {
      id: { default: null, parseHTML: (element) => element.getAttribute('data-id'), renderHTML: (attributes) => ({ 'data-id': attributes.id }) },
      handle: { default: null, parseHTML: (element) => element.getAttribute('data-handle'), renderHTML: (attributes) => ({ 'data-handle': attributes.handle }) },
    };
  },
  parseHTML: () => [{ tag: 'span[data-mention]' }],
  renderHTML: ({ node, HTMLAttributes }) => ['span', mergeAttributes(HTMLAttributes, { 'data-mention': '', class: 'mention' }), `@${node.attrs.handle}`],
  renderText: ({ node }) => `@${node.attrs.handle}`,
});


// --- What each attribute may hold --------------------------------------------
//
// Every attribute of every node and mark above, and the values it may take:
// null (the attribute's default) or what the rule accepts. The document guard
// (document-model.ts) refuses an update setting anything else, and readers
// (document.ts) replace what a document stored before the guard holds with
// the default, so that no value can make an export or a build unbounded.
// test/rooms/attributes.test.ts checks that these lists match the schema.

type Rule = (value: unknown) => boolean;

const integer =
  (min: number, max: number): Rule =>
  (value) =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
const oneOf =
  (...allowed: unknown[]): Rule =>
  (value) =>
    allowed.includes(value);
const text =
  (max: number, pattern?: RegExp): Rule =>
  (value) =>
    typeof value === 'string' && value.length <= max && (!pattern || pattern.test(value));
const boolean: Rule = (value) => typeof value === 'boolean';

// The Link extension's own list (what a pasted link may keep), and web images only.
const LINK_SCHEMES = new Set(['http', 'https', 'ftp', 'ftps', 'mailto', 'tel', 'callto', 'sms', 'cid', 'xmpp']);
const IMAGE_SCHEMES = new Set(['http', 'https']);
const MAX_URL = 8192;

/** A URL of one of `schemes`, or one without a scheme (relative). Browsers ignore whitespace and controls in a scheme, so they are dropped before it is read. */
const url =
  (schemes: Set<string>): Rule =>
  (value) => {
    if (typeof value !== 'string' || value.length > MAX_URL) return false;
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value.replace(/[\s\p{Cc}\p{Cf}]/gu, ''));
    return !scheme || schemes.has(scheme[1].toLowerCase());
  };

// Sizes in pixels, or a CSS length as a pasted image's width="50%" gives.
const dimension: Rule = (value) => integer(0, 100_000)(value) || text(20, /^\d{1,6}(\.\d{1,4})?(px|%|em|rem)?$/)(value);
const cell = {
  colspan: integer(1, 1000),
  rowspan: integer(1, 1000),
  colwidth: (value: unknown) => Array.isArray(value) && value.length <= 1000 && value.every(integer(0, 100_000)),
  align: oneOf('left', 'center', 'right'),
};

export const NODE_ATTRIBUTES = new Map(
  Object.entries<Record<string, Rule>>({
    paragraph: {},
    blockquote: {},
    bulletList: {},
    // One word: the fence's info string (no whitespace, no backquote).
    codeBlock: { language: text(64, /^[^\s`\p{Cc}]+$/u) },
    hardBreak: {},
    heading: { level: integer(1, 6) },
    horizontalRule: {},
    listItem: {},
    // CommonMark reads at most nine digits as a list number.
    orderedList: { start: integer(0, 999_999_999), type: oneOf('1', 'a', 'A', 'i', 'I') },
    taskList: {},
    taskItem: { checked: boolean },
    table: {},
    tableRow: {},
    tableCell: cell,
    tableHeader: cell,
    image: { src: url(IMAGE_SCHEMES), alt: text(2000), title: text(2000), width: dimension, height: dimension },
    mention: { id: (value: unknown) => text(100)(value) && value !== '', handle: text(39, HANDLE_PATTERN) },
  }),
);

export const MARK_ATTRIBUTES = new Map(
  Object.entries<Record<string, Rule>>({
    bold: {},
    italic: {},
    strike: {},
    code: {},
    underline: {},
    link: { href: url(LINK_SCHEMES), target: oneOf('_blank', '_self', '_parent', '_top'), rel: text(200), class: text(200), title: text(2000) },
  }),
);

/** Whether `value` may be attribute `name` of `rules`' node or mark: known, and null or what its rule accepts. */
export function attributeFits(rules: Record<string, Rule>, name: string, value: unknown): boolean {
  return Object.hasOwn(rules, name) && (value === null || rules[name](value));
}

/** A mark as the document stores it (Yjs text formatting): null where it ends, else an object of its attributes. */
export function markFits(name: string, value: unknown): boolean {
  if (value === null) return true;
  const rules = MARK_ATTRIBUTES.get(name);
  if (!rules || typeof value !== 'object' || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.entries(value).every(([key, attribute]) => attributeFits(rules, key, attribute));
}

/** Only the attributes that fit, for building a node or mark: the rest are left out (their defaults). */
export function fittingAttributes(rules: Record<string, Rule>, stored: Record<string, unknown>): Record<string, unknown> {
  const fitting: Record<string, unknown> = {};
  for (const name of Object.keys(rules)) if (stored[name] != null && rules[name](stored[name])) fitting[name] = stored[name];
  return fitting;
}

/** A mark's attributes that fit, or null for a mark the editor has not and for a link whose href is refused (plain text then). */
export function fittingMark(name: string, stored: unknown): Record<string, unknown> | null {
  const rules = MARK_ATTRIBUTES.get(name);
  if (!rules) return null;
  const attributes = fittingAttributes(rules, stored !== null && typeof stored === 'object' ? (stored as Record<string, unknown>) : {});
  return name === 'link' && !attributes.href ? null : attributes;
}

/**
 * Resets, in every change the editor makes, an attribute outside its rule to
 * its default (and drops a link whose href is not allowed) before the change
 * reaches the document: the server ends the socket of an update holding one,
 * and the provider would send it again after every reconnect. Typing
 * "1234567890. " or pasting `<ol start="-3">` makes such values.
 */
export function attributeRulesPlugin(): Plugin {
  return new Plugin({
    appendTransaction(transactions, before, state) {
      if (!transactions.some((transaction) => transaction.docChanged)) return null;
      const fix = state.tr;
      for (const { newRange } of getChangedRanges(combineTransactionSteps(before.doc, [...transactions]))) {
        state.doc.nodesBetween(newRange.from, Math.min(newRange.to, state.doc.content.size), (node, pos) => {
          const rules = NODE_ATTRIBUTES.get(node.type.name);
          if (rules && Object.entries(node.attrs).some(([name, value]) => !attributeFits(rules, name, value))) fix.setNodeMarkup(pos, undefined, fittingAttributes(rules, node.attrs));
          for (const mark of node.marks) {
            if (markFits(mark.type.name, { ...mark.attrs })) continue;
            fix.removeMark(pos, pos + node.nodeSize, mark);
            const attributes = fittingMark(mark.type.name, mark.attrs);
            if (attributes) fix.addMark(pos, pos + node.nodeSize, mark.type.create(attributes));
          }
        });
      }
      return fix.docChanged ? fix : null;
    },
  });
}

const AttributeRules = Extension.create({ name: 'attributeRules', addProseMirrorPlugins: () => [attributeRulesPlugin()] });

export const documentExtensions = [
  // Collaboration brings its own undo over Yjs; StarterKit's would fight it.
  StarterKit.configure({ undoRedo: false, link: { openOnClick: false, autolink: true } }),
  TaskList,
  TaskItem.configure({ nested: true }),
  TableKit.configure({ table: { resizable: false } }),
  Image.configure({ inline: false, allowBase64: false }),
  Mention,
  AttributeRules,
];
