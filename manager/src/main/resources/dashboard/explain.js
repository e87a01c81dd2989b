// The side panel: GET .../workloads/{name}/explain, each layer as an ok/blocked badge with its message.
import {apiFetch} from './stream.js';
import {el} from './dom.js';

const BADGE = {ok: 'badge-ok', blocked: 'badge-blocked', waiting: 'badge-waiting', notReached: 'badge-muted'};

export async function explain(panel, body, title, namespace, name) {
  panel.hidden = false;
  title.textContent = namespace + '/' + name;
  body.replaceChildren(el('p', {class: 'muted'}, 'Asking the manager…'));
  let answer;
  try {
    const path = '/apis/kueue.x-k8s.io/v1beta2/namespaces/' + encodeURIComponent(namespace) + '/workloads/'
        + encodeURIComponent(name) + '/explain';
    const response = await apiFetch(path);
    answer = await response.json();
    if (!response.ok) throw new Error(answer.message || 'HTTP ' + response.status);
  } catch (e) {
    body.replaceChildren(el('p', {class: 'error'}, 'No explanation: ' + e.message));
    return;
  }
  const first = (answer.layers || []).find(l => l.state === 'blocked' || l.state === 'waiting');
  body.replaceChildren(
      el('p', {class: 'answer'}, first
          ? (first.state === 'blocked' ? 'Blocked at ' : 'Waiting at ') + first.layer + (first.reason ? ': ' + first.reason : '')
          : 'Nothing blocks this workload.'),
      el('ol', {class: 'layers'}, (answer.layers || []).map(layer)));
}

function layer(l) {
  const details = l.details && typeof l.details === 'object' ? Object.entries(l.details) : [];
  return el('li', {class: 'layer layer-' + l.state, 'data-layer': l.layer},
      el('div', {class: 'layer-head'},
          el('span', {class: 'badge ' + (BADGE[l.state] || 'badge-muted')}, l.state),
          el('span', {class: 'strong'}, l.layer),
          l.reason ? el('span', {class: 'muted'}, ' · ' + l.reason) : null),
      l.message ? el('ul', {class: 'layer-message'}, clauses(l.message).map(c => el('li', null, c))) : null,
      details.length ? el('dl', {class: 'details'}, details.map(([k, v]) =>
          [el('dt', null, k), el('dd', null, typeof v === 'object' ? JSON.stringify(v) : String(v))])) : null);
}

/** The scheduler's messages are clauses joined by "; ": one line each reads better. */
function clauses(message) {
  return message.split(/;\s+/).filter(Boolean);
}
