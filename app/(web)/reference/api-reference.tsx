'use client';

import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';
import { useEffect, useRef } from 'react';
import { referenceConfiguration } from './configuration.ts';

/**
 * What Scalar leaves out for keyboard and screen-reader users, added as it
 * renders: a name for each example's show/hide button (they have only an
 * icon), and a tab stop on the list of endpoints, which scrolls on a phone.
 */
function completeAccessibility(root: HTMLElement) {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[aria-controls]:not([aria-label])')) {
    // Its aria-expanded tells whether the example is shown.
    if (!button.textContent?.trim()) button.setAttribute('aria-label', 'Example');
  }
  for (const list of root.querySelectorAll<HTMLElement>('.endpoints:not([tabindex])')) {
    list.tabIndex = 0;
  }
}

// Renders /openapi.json, making no requests beyond this server (see configuration.ts).
export function ApiReference() {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    completeAccessibility(element);
    const observer = new MutationObserver(() => completeAccessibility(element));
    observer.observe(element, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={root}>
      <ApiReferenceReact configuration={referenceConfiguration} />
    </div>
  );
}
