// An app spec as files: one HTML page per app page (index.html for the home
// page, <slug>/index.html for the others, so links work under any prefix),
// a stylesheet, one script, the tables' first rows as data/<table>.json and
// the spec itself as app.json. Everything a visitor sees comes from here:
// text from the room is escaped, and the script is ours, never the model's.
//
// Tables are written into the pages with their first rows, so the preview
// (a static site in a sandbox) shows them. In the live app and the export the
// script reads and adds rows through `_api/` beside the pages.
import type { AppSpec, Block, TableSpec } from './spec.ts';

export type AppFile = { path: string; content: Buffer; contentType: string };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function tableHtml(table: TableSpec): string {
  const head = table.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('');
  const rows = table.rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  const inputs = table.columns
    .map((c, i) => `<label>${escapeHtml(c)}<input name="${escapeHtml(c)}" ${i === 0 ? 'required ' : ''}maxlength="2000"></label>`)
    .join('');
  const form = `<form class="add${table.guestWrites ? '' : ' admin-only'}" data-add="${table.name}" hidden>${inputs}<button type="submit">Add</button><p class="status" role="status"></p></form>`;
  return `<section class="table"><h3>${escapeHtml(table.title)}</h3><table data-table="${table.name}" data-columns="${escapeHtml(JSON.stringify(table.columns))}"><thead><tr>${head}</tr></thead><tbody>\n${rows}\n</tbody></table>${form}</section>`;
}

function blockHtml(block: Block, tables: Map<string, TableSpec>): string {
  switch (block.type) {
    case 'heading':
      return `<h${Math.min(block.level + 1, 6)}>${escapeHtml(block.text)}</h${Math.min(block.level + 1, 6)}>`;
    case 'text':
      return `<p>${escapeHtml(block.text)}</p>`;
    case 'list': {
      const tag = block.ordered ? 'ol' : 'ul';
      return `<${tag}>${block.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</${tag}>`;
    }
    case 'table': {
      const table = tables.get(block.table);
      return table ? tableHtml(table) : '';
    }
  }
}

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function pageHtml(spec: AppSpec, index: number, tables: Map<string, TableSpec>): string {
  const page = spec.pages[index];
  const root = page.slug ? '../' : './';
  const nav = spec.pages
    .map((p, i) => `<a href="${root}${p.slug ? `${p.slug}/` : ''}"${i === index ? ' aria-current="page"' : ''}>${escapeHtml(p.title)}</a>`)
    .join('');
  const title = page.slug === '' ? spec.name : page.title;
  // A page whose first block is its own title (as a builder may write it) shows the title once.
  const first = page.blocks[0];
  const blocks = first?.type === 'heading' && sameText(first.text, title) ? page.blocks.slice(1) : page.blocks;
  const body = blocks.map((b) => blockHtml(b, tables)).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.slug ? `${page.title} · ${spec.name}` : spec.name)}</title>
<link rel="stylesheet" href="${root}assets/app.css"><script src="${root}assets/app.js" defer></script></head>
<body data-root="${root}"><header><strong class="name">${escapeHtml(spec.name)}</strong><nav>${nav}</nav><span class="who" hidden></span></header>
<main><h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>
`;
}

// The page follows the visitor's scheme; its text, link and muted colours have
// a dark value each, so all pass 4.5:1 in both. The page's own background is
// set rather than left to the browser's canvas, which checkers such as axe
// take for white.
const CSS = `:root{color-scheme:light dark;--bg:#fff;--fg:#0f172a;--brand:#4338ca;--link:#4338ca;--line:#e2e8f0;--muted:#475569}
@media (prefers-color-scheme:dark){:root{--bg:#0f172a;--fg:#f1f5f9;--link:#a5b4fc;--line:#334155;--muted:#94a3b8}}
[hidden]{display:none!important}*{box-sizing:border-box}body{margin:0;font:16px/1.55 ui-sans-serif,system-ui,sans-serif;background:var(--bg);color:var(--fg)}
header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.75rem 1.25rem;border-bottom:1px solid var(--line)}
header .name{font-size:1.1rem}nav{display:flex;gap:.75rem;flex-wrap:wrap}nav a{color:var(--link);text-decoration:none}
nav a[aria-current]{font-weight:600;text-decoration:underline}.who{margin-left:auto;color:var(--muted);font-size:.875rem}
main{max-width:56rem;margin:0 auto;padding:1.25rem}table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{border:1px solid var(--line);padding:.35rem .6rem;text-align:left}th{background:rgba(100,116,139,.08)}
form.add{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:.5rem 0 1.5rem}form.add label{display:flex;flex-direction:column;font-size:.875rem}
input{font:inherit;padding:.3rem .5rem;border:1px solid var(--line);border-radius:.3rem}
button{font:inherit;padding:.35rem .9rem;border:0;border-radius:.3rem;background:var(--brand);color:#fff;cursor:pointer}
.status{flex-basis:100%;margin:0;color:var(--muted);font-size:.875rem}
`;

// The live app's script: asks `_api/session` who the visitor is; without an
// answer (the preview, a static copy) the pages stay as built.
const JS = `(function(){
var root=document.body.getAttribute('data-root')||'./';
function api(path,init){return fetch(root+'_api/'+path,Object.assign({credentials:'same-origin',headers:{'content-type':'application/json'}},init||{}));}
function cell(text){var td=document.createElement('td');td.textContent=text==null?'':String(text);return td;}
function load(table){
  var name=table.getAttribute('data-table');var columns=JSON.parse(table.getAttribute('data-columns'));
  return api('tables/'+encodeURIComponent(name)).then(function(r){return r.ok?r.json():null;}).then(function(data){
    if(!data)return;var body=table.tBodies[0];body.textContent='';
    data.rows.forEach(function(row){var tr=document.createElement('tr');columns.forEach(function(c){tr.appendChild(cell(row[c]));});body.appendChild(tr);});
  });
}
api('session').then(function(r){return r.ok?r.json():null;}).catch(function(){return null;}).then(function(session){
  if(!session)return;
  if(session.label){var who=document.querySelector('.who');who.textContent=session.label;who.hidden=false;}
  document.querySelectorAll('table[data-table]').forEach(load);
  document.querySelectorAll('form[data-add]').forEach(function(form){
    if(form.classList.contains('admin-only')&&!session.admin)return;
    form.hidden=false;
    form.addEventListener('submit',function(event){
      event.preventDefault();var values={};
      Array.prototype.forEach.call(form.elements,function(el){if(el.name)values[el.name]=el.value;});
      var status=form.querySelector('.status');status.textContent='Adding…';
      var name=form.getAttribute('data-add');
      api('tables/'+encodeURIComponent(name),{method:'POST',body:JSON.stringify({values:values})}).then(function(r){
        return r.json().then(function(body){
          if(!r.ok){status.textContent=(body.error&&body.error.message)||'Could not add the row.';return;}
          status.textContent='Added.';form.reset();return load(document.querySelector('table[data-table="'+name+'"]'));
        });
      }).catch(function(){status.textContent='Could not reach the app.';});
    });
  });
});
})();
`;

/** The files of an app. */
export function renderApp(spec: AppSpec): AppFile[] {
  const tables = new Map(spec.tables.map((t) => [t.name, t]));
  const html = (path: string, content: string): AppFile => ({ path, content: Buffer.from(content), contentType: 'text/html; charset=utf-8' });
  const files: AppFile[] = spec.pages.map((page, i) => html(page.slug ? `${page.slug}/index.html` : 'index.html', pageHtml(spec, i, tables)));
  files.push({ path: 'assets/app.css', content: Buffer.from(CSS), contentType: 'text/css; charset=utf-8' });
  files.push({ path: 'assets/app.js', content: Buffer.from(JS), contentType: 'text/javascript; charset=utf-8' });
  for (const table of spec.tables) {
    files.push({ path: `data/${table.name}.json`, content: Buffer.from(`${JSON.stringify({ columns: table.columns, rows: table.rows, guestWrites: table.guestWrites }, null, 2)}\n`), contentType: 'application/json' });
  }
  files.push({ path: 'app.json', content: Buffer.from(`${JSON.stringify(spec, null, 2)}\n`), contentType: 'application/json' });
  // The preview is a static site, with no data API: this file answers the script's
  // question there ("no session"), so the pages stay as built without a 404. The
  // live app and the export answer `_api/` themselves and never serve it.
  files.push({ path: '_api/session', content: Buffer.from('null\n'), contentType: 'application/json' });
  return files;
}
