// View 3: worker clusters: health, breaker, connection, last report, capacity per flavor
// (allocatable against free) and the attempts running there.
import {age, el, empty, percent} from './dom.js';

export function renderClusters(container, snapshot) {
  const clusters = snapshot.clusters || [];
  if (clusters.length === 0) {
    return container.replaceChildren(empty('No worker clusters: register a MultiKueueCluster to dispatch to one.'));
  }
  container.replaceChildren(el('div', {class: 'grid'}, clusters.map(card)));
}

function healthClass(health) {
  if (health === 'Healthy') return 'badge-ok';
  if (health === 'Unreachable' || health === 'Lost') return 'badge-blocked';
  return 'badge-waiting';
}

function card(c) {
  return el('article', {class: 'card cluster', 'data-cluster': c.name},
      el('h2', null, c.name, ' ', el('span', {class: 'badge ' + healthClass(c.health)}, c.health || 'unknown')),
      el('dl', {class: 'facts'},
          el('dt', null, 'Connected'), el('dd', null, c.connected ? 'yes' : 'no'),
          el('dt', null, 'Breaker'), el('dd', null, c.breaker || '—'),
          el('dt', null, 'Last report'), el('dd', null, c.lastReportTime ? age(c.lastReportTime) + ' ago' : 'never'),
          c.lastError ? [el('dt', null, 'Last error'), el('dd', {class: 'error'}, c.lastError)] : null),
      el('h3', null, 'Capacity'),
      c.capacity.length === 0 ? empty('No capacity report yet.') : c.capacity.map(flavor),
      el('h3', null, 'Running (' + c.runningWorkloads.length + ')'),
      c.runningWorkloads.length === 0 ? empty('Nothing running.') :
          el('table', {class: 'rows'},
              el('thead', null, el('tr', null, ['Workload', 'Attempt', 'Phase'].map(h => el('th', null, h)))),
              el('tbody', null, c.runningWorkloads.map(w => el('tr', null,
                  el('td', null, w.namespace + '/' + w.name),
                  el('td', {class: 'mono'}, w.attemptId),
                  el('td', null, w.phase || '—'))))));
}

function flavor(f) {
  return el('div', {class: 'capacity'},
      el('div', {class: 'strong'}, f.flavor, el('span', {class: 'muted'}, ' · ' + f.nodes + ' nodes')),
      el('table', {class: 'bars'}, el('tbody', null, f.resources.map(r => el('tr', null,
          el('th', {scope: 'row'}, r.resource),
          el('td', {class: 'bar-cell'}, el('div', {class: 'bar', title: r.freeText + ' free of ' + r.allocatableText},
              el('div', {class: 'bar-nominal', width: '100%'}),
              el('div', {class: 'bar-used', width: percent(r.allocatable - r.free, r.allocatable)}))),
          el('td', {class: 'numbers'}, r.freeText + ' free / ' + r.allocatableText))))));
}
