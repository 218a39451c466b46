// Search: what the web app's ⌘K menu finds, one request per pause in typing.
// lib/search holds the implementation.
import { z } from 'zod';
import { text, wholeNumber } from './common.ts';
import { endpoint } from './endpoint.ts';

export const searchKind = z.enum(['workspace', 'space', 'room', 'live-space', 'app', 'file']);

export const searchResult = z
  .object({
    kind: searchKind,
    name: z.string().meta({ description: "The thing's name; a file's path within its space." }),
    context: z.string().meta({ description: 'Where it is: its workspace, and for a file its space.' }),
    path: z.string().meta({ description: "Its page in the web app (a file's page shows the latest version)." }),
  })
  .meta({ id: 'SearchResult' });

export const searchApi = {
  search: endpoint({
    method: 'GET',
    path: '/v1/search',
    summary: "Find the caller's workspaces, spaces, rooms, live spaces, apps and files by name",
    tag: 'Search',
    auth: 'user',
    query: z.object({
      q: text().min(1).max(100).meta({ description: 'Words that must all appear in the name (a file: its path), in any case.' }),
      limit: wholeNumber(1, 20).default(5).meta({ description: 'Results of each kind, from 1 to 20; 5 when absent.' }),
    }),
    response: z.object({
      results: z.array(searchResult).meta({ description: 'Workspaces, spaces, rooms, live spaces, apps, then files of the latest versions: only what the caller belongs to (their workspaces, and spaces and rooms they were added to).' }),
    }),
    errors: [400, 401, 429],
  }),
};

export type SearchResult = z.infer<typeof searchResult>;
