// The page shown in review mode: the published HTML with a <base> pointing at
// the site (so its relative links, styles and images load from there) and a
// script that tells the parent window what is selected and highlights quotes.
// It runs in a frame sandboxed without allow-same-origin (components/comments/review-frame.tsx).

const REVIEW_SCRIPT = `(() => {
  const ctx = (range) => {
    const before = document.createRange(); before.selectNodeContents(document.body); before.setEnd(range.startContainer, range.startOffset);
    const after = document.createRange(); after.selectNodeContents(document.body); after.setStart(range.endContainer, range.endOffset);
    return { prefix: before.toString().slice(-32), suffix: after.toString().slice(0, 32) };
  };
  // selectionchange, so a selection made with the keyboard counts too.
  document.addEventListener('selectionchange', () => {
    const s = getSelection();
    if (!s || s.isCollapsed || !s.rangeCount) return;
    const range = s.getRangeAt(0); const exact = range.toString();
    if (!exact.trim()) return;
    parent.postMessage({ type: 'atrium-selection', exact, ...ctx(range) }, '*');
  });
  addEventListener('message', (event) => {
    if (event.source !== parent || !event.data || event.data.type !== 'atrium-highlight' || !window.CSS || !CSS.highlights) return;
    const nodes = []; const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
    const text = nodes.map((n) => n.data).join('');
    const at = (o) => { for (const n of nodes) { if (o <= n.data.length) return [n, o]; o -= n.data.length; } return null; };
    const ranges = [];
    for (const q of event.data.quotes) {
      const i = text.indexOf(q); if (i < 0) continue;
      const a = at(i), b = at(i + q.length); if (!a || !b) continue;
      const r = document.createRange(); r.setStart(a[0], a[1]); r.setEnd(b[0], b[1]); ranges.push(r);
    }
    CSS.highlights.set('atrium', new Highlight(...ranges));
  });
  const style = document.createElement('style');
  style.textContent = '::highlight(atrium) { background: #fde68a; }';
  document.head.appendChild(style);
})();`;

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The page's HTML for the review frame's srcdoc. */
export function reviewDocument(html: string, baseUrl: string, nonce: string | null = null): string {
  // The frame's document inherits the app page's Content-Security-Policy: the script carries its nonce.
  const head = `<base href="${escapeAttribute(baseUrl)}"><script${nonce ? ` nonce="${escapeAttribute(nonce)}"` : ''}>${REVIEW_SCRIPT}</script>`;
  // After <head> when there is one, else first; the script waits for events, so its place does not matter.
  const at = html.search(/<head[^>]*>/i);
  if (at === -1) return head + html;
  const end = html.indexOf('>', at) + 1;
  return html.slice(0, end) + head + html.slice(end);
}
