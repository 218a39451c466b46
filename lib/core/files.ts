// A stored file as domain code answers it: which blob, with which headers and
// status. Turning it into bytes on the wire is the HTTP edge's work
// (server/http/files.ts); domain code only describes the file.
export type StoredFile = { sha256: string; size: number; contentType: string };

export class FileAnswer {
  readonly file: StoredFile;
  /** Content policy and caching, e.g. content-security-policy, content-disposition. */
  readonly headers: Record<string, string>;
  readonly status: number;

  constructor(file: StoredFile, headers: Record<string, string> = {}, status = 200) {
    this.file = file;
    this.headers = headers;
    this.status = status;
  }
}

/** The content codings a stored file is sent and kept in (besides as stored). */
export const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];
