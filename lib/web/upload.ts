// Sends a file's bytes to an API route with upload progress, which fetch
// cannot report: XMLHttpRequest, same-origin, signed in by the session
// cookie. A failure rejects with the API's error message, put for a person.
import { humanMessage } from './human-errors.ts';

export type UploadProgress = (sent: number, total: number) => void;

export function uploadBytes<T>(method: 'POST' | 'PUT', path: string, file: Blob, onProgress: UploadProgress): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, path);
    request.setRequestHeader('content-type', file.type || 'application/octet-stream');
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onerror = () => reject(new Error('The upload did not reach the server; check the connection and try again.'));
    request.onload = () => {
      let body: { error?: { code?: string; message?: string } } | null = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = null;
      }
      if (request.status >= 200 && request.status < 300) resolve(body as T);
      else reject(new Error(body?.error?.message ? humanMessage(body.error.code ?? 'error', body.error.message) : `The upload failed (${request.status}).`));
    };
    request.send(file);
  });
}
