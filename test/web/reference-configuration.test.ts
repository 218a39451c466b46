// The API reference page (Scalar) must work offline and send nothing to
// Scalar or anyone else: its configuration turns off each default that does.
// e2e/reference.spec.ts checks the rendered page's requests in a browser.
import { describe, expect, it } from 'vitest';
import { referenceConfiguration } from '@/app/(web)/reference/configuration.ts';

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('the API reference configuration', () => {
  it('turns off Ask AI, Generate MCP, the share toolbar, the client app button and telemetry', () => {
    expect(referenceConfiguration).toMatchObject({
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: 'never',
      hideClientButton: true,
      telemetry: false,
    });
  });

  it('loads no hosted fonts and sends test requests through no proxy', () => {
    expect(referenceConfiguration.withDefaultFonts).toBe(false);
    // Left undefined, Scalar routes test requests through its hosted proxy.
    expect(referenceConfiguration.proxyUrl).toBe('');
  });

  it('names no outside host: the document comes from this server', () => {
    expect(referenceConfiguration.url).toBe('/openapi.json');
    const absolute = strings(referenceConfiguration).filter((s) => /^([a-z][a-z0-9+.-]*:)?\/\//i.test(s));
    expect(absolute).toEqual([]);
    // Scalar falls back to its own services for the URLs left out.
    expect(Object.values(referenceConfiguration.externalUrls)).toEqual(['', '', '', '']);
  });
});
