// The few pages the server renders itself, for visitors of published sites:
// a protected space's password form and "not found". They stand on the
// sites' hosts, where the app's stylesheet is not, so they carry their own
// small copy of the app's look, and a CSP that lets nothing else in.
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

// The app's font stack (its Tailwind build's --font-sans) and page colours, so these pages read as Atrium's own.
const STYLE = `
:root{color-scheme:light dark;--brand:#4338ca;--text:#0f172a;--muted:#475569;--line:#e2e8f0;--bg:#f8fafc;--card:#fff;--error:#b91c1c}
@media (prefers-color-scheme:dark){:root{--brand:#a5b4fc;--text:#f1f5f9;--muted:#94a3b8;--line:#334155;--bg:#020617;--card:#0f172a;--error:#fca5a5}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue","Noto Sans",Arial,sans-serif,"Apple Color Emoji","Segoe UI Emoji","Segoe UI Symbol","Noto Color Emoji";-webkit-font-smoothing:antialiased;-moz-osx-font-smoothing:grayscale;color:var(--text);background:var(--bg)}
header{border-bottom:1px solid var(--line);background:var(--card)}header div{max-width:64rem;margin:0 auto;padding:.75rem 1rem}
header a{display:inline-flex;align-items:center;gap:.5rem;color:var(--brand);font-weight:600;font-size:1.125rem;text-decoration:none}header svg{width:1.5rem;height:1.5rem}
main{max-width:28rem;margin:12vh auto;padding:0 1rem}
.card{border:1px solid var(--line);border-radius:.75rem;background:var(--card);padding:1.5rem}
h1{font-size:1.25rem;margin:0 0 .5rem}p{margin:.5rem 0;color:var(--muted)}
label{display:block;font-weight:500;margin:1rem 0 .25rem}
input{width:100%;font:inherit;padding:.5rem .75rem;border:1px solid var(--line);border-radius:.375rem;background:var(--bg);color:var(--text)}
input:focus,button:focus,a:focus{outline:2px solid var(--brand);outline-offset:2px}
button{margin-top:1rem;font:inherit;font-weight:500;padding:.5rem 1rem;border:0;border-radius:.375rem;background:var(--brand);color:#fff;cursor:pointer}
@media (prefers-color-scheme:dark){button{color:#0f172a}}
.error{color:var(--error)}main a{color:var(--brand)}`;

/** The app's logo (components/shell/app-shell.tsx), inline: the CSP lets no image in. */
const LOGO =
  '<svg aria-hidden="true" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="currentColor"/><path d="M9 23 16 8l7 15M12 17h8" stroke="white" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>';

/** A rendered page with its refusal's own headers added (a 429's Retry-After). */
export function withHeaders(response: Response, headers: Record<string, string> = {}): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(status: number, title: string, body: string, appUrl: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · Atrium</title><style>${STYLE}</style></head>
<body><header><div><a href="${escapeHtml(appUrl)}/">${LOGO}Atrium</a></div></header><main><div class="card"><h1>${escapeHtml(title)}</h1>${body}</div></main></body></html>`;
  return new Response(html, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP, 'cache-control': 'no-store' },
  });
}

export function notFoundPage(message: string, signInUrl: string | null, appUrl: string): Response {
  const signIn = signInUrl ? `<p><a href="${escapeHtml(signInUrl)}">Sign in</a> if it was shared with you.</p>` : '';
  return page(404, 'Not found', `<p>${escapeHtml(message)}</p>${signIn}<p><a href="${escapeHtml(appUrl)}/">Go to Atrium</a></p>`, appUrl);
}

/** `memberUrl`: where people who may view the space without its password (its members) sign in instead. */
export function passwordPage(status: number, error: string | null, memberUrl: string | null, appUrl: string): Response {
  const note = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
  const members = memberUrl ? `<p>Member of this space? <a href="${escapeHtml(memberUrl)}">Open it with your Atrium account</a>.</p>` : '';
  return page(
    status,
    'This space is protected',
    `<p>Enter its password to open it.</p>${note}<form method="post"><label for="password">Password</label><input id="password" type="password" name="password" autocomplete="current-password" autofocus required><button>Open</button></form>${members}`,
    appUrl,
  );
}

// --- live apps (server/apps.ts) ---

export function joinCodePage(status: number, name: string, error: string | null, appUrl: string): Response {
  const note = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
  return page(
    status,
    name,
    `<p>This app is opened with a join code. Ask the person who shared it.</p>${note}<form method="post"><label for="code">Join code</label><input id="code" name="code" autocomplete="off" autocapitalize="characters" spellcheck="false" autofocus required maxlength="20"><button>Open</button></form>`,
    appUrl,
  );
}

export function pausedPage(name: string, appUrl: string): Response {
  const response = page(503, name, '<p>This app is paused by its owners for now. Try again later.</p>', appUrl);
  response.headers.set('retry-after', '3600');
  return response;
}
