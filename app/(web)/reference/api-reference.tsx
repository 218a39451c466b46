'use client';

import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';
import { referenceConfiguration } from './configuration.ts';

// Renders /openapi.json, making no requests beyond this server (see configuration.ts).
export function ApiReference() {
  return <ApiReferenceReact configuration={referenceConfiguration} />;
}
