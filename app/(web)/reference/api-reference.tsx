'use client';

import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';

// Renders /openapi.json. Fonts and telemetry stay off: the page makes no
// requests beyond this server.
export function ApiReference() {
  return (
    <ApiReferenceReact
      configuration={{ url: '/openapi.json', withDefaultFonts: false, telemetry: false, hideClientButton: true }}
    />
  );
}
