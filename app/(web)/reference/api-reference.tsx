'use client';

import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';
import { useEffect } from 'react';
import { referenceConfiguration } from './configuration.ts';

/**
 * What Scalar leaves out for keyboard and screen-reader users, added as it
 * renders (it mounts parts of itself outside this component, so the whole
 * document is watched): a name for the icon-only copy button of each code
 * example, and a tab stop on the list of endpoints, which scrolls on a phone.
 */
function completeAccessibility(root: HTMLElement) {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button.scalar-code-copy:not([aria-label])')) button.setAttribute('aria-label', 'Copy the example');
  for (const list of root.querySelectorAll<HTMLElement>('.endpoints:not([tabindex])')) list.tabIndex = 0;
}

// Renders /openapi.json, making no requests beyond this server (see configuration.ts).
export function ApiReference() {
  useEffect(() => {
    // Scalar renders in many small steps: one pass per frame, not one per mutation.
    let frame = 0;
    const pass = () => {
      frame = 0;
      completeAccessibility(document.body);
    };
    pass();
    const observer = new MutationObserver(() => {
      frame ||= requestAnimationFrame(pass);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, []);
  return <ApiReferenceReact configuration={referenceConfiguration} />;
}
