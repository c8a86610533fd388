// dom.js: a few helpers for building the page without a framework.

// h creates an element: h('li', {class: 'x', onclick: f}, 'text', child...).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k in el && k !== 'list' && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

export const $ = (sel, root = document) => root.querySelector(sel);

// fill replaces an element's children.
export function fill(el, ...children) {
  el.replaceChildren();
  for (const c of children.flat(Infinity)) {
    if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
  }
}

// fmtTime shows unix seconds as a short UTC date and time.
export function fmtTime(sec) {
  if (!Number.isFinite(sec) || sec <= 0) return '';
  return new Date(sec * 1000).toISOString().slice(0, 16).replace('T', ' ');
}

// download offers text (or bytes) as a file.
export function download(name, text, type = 'application/json') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// bar is a strength bar in [0,1].
export function bar(x, neg = false) {
  const pct = Math.max(0, Math.min(1, Number(x) || 0)) * 100;
  return h('div', { class: neg ? 'bar neg' : 'bar', role: 'meter', 'aria-valuemin': '0', 'aria-valuemax': '1', 'aria-valuenow': String(x) },
    h('span', { style: `width:${pct.toFixed(0)}%` }));
}
