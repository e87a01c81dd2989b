// Building DOM nodes without ever parsing data as HTML: every piece of data becomes a text node.

export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'width') node.style.width = value;
    else if (key === 'left') node.style.left = value;
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** "3m 20s", "2h 5m", "4d 1h" from an RFC 3339 time to now. */
export function age(iso) {
  if (!iso) return '—';
  const seconds = Math.max(0, Math.floor((Date.now() - Date.parse(iso)) / 1000));
  if (seconds < 60) return seconds + 's';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return minutes + 'm ' + (seconds % 60) + 's';
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return hours + 'h ' + (minutes % 60) + 'm';
  return Math.floor(hours / 24) + 'd ' + (hours % 24) + 'h';
}

export function percent(part, whole) {
  if (!whole || whole <= 0) return '0%';
  return Math.max(0, Math.min(100, (part / whole) * 100)).toFixed(2) + '%';
}

export function empty(message) {
  return el('p', {class: 'empty'}, message);
}
