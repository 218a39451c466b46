import type { AnyApiReferenceConfiguration } from '@scalar/api-reference-react';

// The API reference of a self-hosted service works offline and sends nothing
// to anyone but this server. Scalar's defaults do otherwise, so each of these
// is needed (test/web/reference-configuration.test.ts and e2e/reference.spec.ts
// hold them to it):
export const referenceConfiguration = {
  url: '/openapi.json',
  // No Google/Scalar-hosted fonts: the system's fonts are used.
  withDefaultFonts: false,
  telemetry: false,
  // "Ask AI" sends the document and questions to Scalar's servers, and is on
  // by default wherever the page's address is local (localhost, a LAN address).
  agent: { disabled: true },
  // "Generate MCP" registers the document with Scalar's dashboard, also on by
  // default at a local address.
  mcp: { disabled: true },
  // The toolbar offers to share the document through Scalar's registry.
  showDeveloperTools: 'never',
  // The button that opens Scalar's separate API client app.
  hideClientButton: true,
  // Test requests go straight to this server: without this, Scalar sends them
  // through its hosted proxy.
  proxyUrl: '',
  // Only the features disabled above use these; blank so that nothing can
  // reach Scalar's services should one come back in an update.
  externalUrls: { dashboardUrl: '', registryUrl: '', proxyUrl: '', apiBaseUrl: '' },
  // Scalar's grey text (#8e8e8e on white, #797979 on #0f0f0f) and light-blue
  // links fall under 4.5:1: darker greys in light, lighter in dark, and the
  // app's link colours.
  // Its method and value colours (green, blue, orange) are darker in light for the same reason.
  customCss: `.light-mode{--scalar-color-2:#5c5c5c;--scalar-color-3:#636363;--scalar-color-accent:#4338ca;--scalar-color-green:#006f45;--scalar-color-blue:#0062a0;--scalar-color-orange:#a83800}
.dark-mode{--scalar-color-3:#a4a4a4;--scalar-color-accent:#a5b4fc}`,
} satisfies AnyApiReferenceConfiguration;
