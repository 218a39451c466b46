'use client';
// The room editor's pop-up menus on Tiptap's suggestion utility: "/" offers
// blocks, "@" the room's people. Focus stays in the editor while a menu is open,
// so the person keeps typing to filter it; the editor names the highlighted
// option with aria-activedescendant (as a combobox does), arrows move it, Enter
// or Tab chooses it, Escape closes the menu, and a click chooses too.
import { shift } from '@floating-ui/dom';
import { Extension, type Editor, type Range } from '@tiptap/core';
import { isChangeOrigin } from '@tiptap/extension-collaboration';
import { PluginKey } from '@tiptap/pm/state';
import Suggestion, { type SuggestionProps } from '@tiptap/suggestion';
import { useCallback, useEffect, useId, useRef, useState } from 'react';

export type MenuItem = { key: string; label: string; hint?: string; choose: (editor: Editor, range: Range) => void };

type Shown = { name: string; props: SuggestionProps<MenuItem, MenuItem>; active: number };

/** At most this many choices are listed (typing narrows them), so the menu never needs to scroll. */
const LISTED = 12;

/** Items whose label (or hint) holds the query, those starting with it first. */
export function matching(items: MenuItem[], query: string): MenuItem[] {
  const q = query.toLowerCase();
  const holds = (item: MenuItem) => item.label.toLowerCase().includes(q) || (item.hint ?? '').toLowerCase().includes(q);
  const starts = (item: MenuItem) => item.label.toLowerCase().startsWith(q);
  return items.filter(holds).sort((a, b) => Number(starts(b)) - Number(starts(a))).slice(0, LISTED);
}

/**
 * The menus' state, and `menu(name, char, items)` to make the Tiptap extension
 * of one menu. Extensions read the items through `items` each time the query
 * changes, so the lists may change without rebuilding the editor.
 */
export function useEditorMenus() {
  const [shown, setShown] = useState<Shown | null>(null);
  const current = useRef<Shown | null>(null);
  const show = useCallback((next: Shown | null) => {
    current.current = next;
    setShown(next);
  }, []);

  const keyDown = useCallback(
    (event: KeyboardEvent): boolean => {
      const open = current.current;
      const count = open?.props.items.length ?? 0;
      if (!open || !count) return false;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        show({ ...open, active: (open.active + (event.key === 'ArrowDown' ? 1 : count - 1)) % count });
        return true;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        open.props.command(open.props.items[open.active]);
        return true;
      }
      return false;
    },
    [show],
  );

  const menu = useCallback(
    (name: string, char: string, items: (query: string) => MenuItem[]) =>
      Extension.create({
        name,
        addProseMirrorPlugins() {
          return [
            Suggestion<MenuItem, MenuItem>({
              editor: this.editor,
              pluginKey: new PluginKey(name),
              char,
              items: ({ query }) => items(query),
              // Not inside code, where "/" and "@" are just characters.
              allow: ({ state, range }) => !state.doc.resolve(range.from).parent.type.spec.code,
              // Someone else's edit next to the caret must not open a menu here.
              shouldShow: ({ transaction }) => !isChangeOrigin(transaction),
              floatingUi: { strategy: 'fixed', middleware: [shift({ padding: 8 })] },
              command: ({ editor, range, props }) => props.choose(editor, range),
              render: () => ({
                onStart: (props) => show({ name, props, active: 0 }),
                onUpdate: (props) => show({ name, props, active: 0 }),
                onKeyDown: ({ event }) => keyDown(event),
                onExit: () => show(null),
              }),
            }),
          ];
        },
      }),
    [show, keyDown],
  );

  return { shown, menu, choose: (index: number) => shown?.props.command(shown.props.items[index]) };
}

/** The open menu, placed under the typed character by the suggestion utility. */
export function EditorMenu({ editor, shown, label, choose }: { editor: Editor; shown: Shown; label: string; choose: (index: number) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const id = useId();
  const optionId = (index: number) => `${id}-option-${index}`;
  const { props, active } = shown;
  const empty = !props.loading && props.items.length === 0;

  useEffect(() => (box.current ? props.mount(box.current) : undefined), [props]);

  // The editor keeps focus: it points screen readers at the highlighted option.
  useEffect(() => {
    if (!props.items.length) return;
    const dom = editor.view.dom;
    dom.setAttribute('aria-controls', `${id}-list`);
    dom.setAttribute('aria-autocomplete', 'list');
    dom.setAttribute('aria-activedescendant', optionId(active));
    return () => ['aria-controls', 'aria-autocomplete', 'aria-activedescendant'].forEach((name) => dom.removeAttribute(name));
  });

  return (
    <div ref={box} className="z-30 max-w-[calc(100vw-1rem)] min-w-56 rounded-md border border-line bg-surface p-1 text-sm shadow-lg">
      {empty ? <p className="px-2 py-1 text-muted">Nothing matches “{props.query}”</p> : null}
      <ul id={`${id}-list`} role="listbox" aria-label={label} hidden={!props.items.length}>
        {props.items.map((item, index) => (
          <li
            key={item.key}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            // Keeps the focus (and the selection) in the editor.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(index)}
            className="flex cursor-pointer items-baseline justify-between gap-3 rounded px-2 py-1 aria-selected:bg-indigo-100 aria-selected:text-indigo-900 dark:aria-selected:bg-indigo-900 dark:aria-selected:text-indigo-100"
          >
            <span>{item.label}</span>
            {item.hint ? <span className="text-xs text-muted">{item.hint}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
