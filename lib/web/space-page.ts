// What the space pages share: their query parameters and their addresses.
export type SearchParams = Record<string, string | string[] | undefined>;

export const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);
export const versionNumber = (value: string | undefined) => (value && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : undefined);

/** A space page's address with query parameters (empty ones left out). */
export function spaceHref(id: string, tab: string, params: Record<string, string | number | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') query.set(key, String(value));
  const text = query.toString();
  return `/spaces/${id}${tab ? `/${tab}` : ''}${text ? `?${text}` : ''}`;
}
