// View 4: quota against capacity, per flavor and resource: the nominal quota every ClusterQueue and
// cohort declares, what is in use, and what the healthy worker clusters have. Over-commitment (more
// quota than allocatable) and idle capacity (free beyond the unused quota) are marked on the row.
import {el, empty, percent} from './dom.js';

export function renderCapacity(container, snapshot) {
  const rows = snapshot.capacity || [];
  if (rows.length === 0) return container.replaceChildren(empty('No quota declared and no capacity reported yet.'));
  container.replaceChildren(el('article', {class: 'card'},
      el('h2', null, 'Quota vs capacity',
          el('span', {class: 'muted'}, ' · capacity counts healthy worker clusters only')),
      el('table', {class: 'rows capacity-table'},
          el('thead', null, el('tr', null, ['Flavor', 'Resource', 'Quota', 'In use', 'Allocatable', 'Free',
              'Healthy clusters', 'Allocatable of quota', 'Marks'].map(h => el('th', null, h)))),
          el('tbody', null, rows.map(row)))));
}

function row(r) {
  const idle = r.idleBeyondQuota > 0;
  return el('tr', {class: 'capacity-row' + (r.overcommitted ? ' overcommitted' : '') + (idle ? ' idle' : ''),
        'data-flavor': r.flavor, 'data-resource': r.resource},
      el('td', {class: 'strong'}, r.flavor),
      el('td', null, r.resource),
      el('td', {class: 'num'}, r.nominalQuotaText),
      el('td', {class: 'num'}, r.inUseText),
      el('td', {class: 'num'}, r.allocatableText),
      el('td', {class: 'num'}, r.freeText),
      el('td', {class: 'num'}, r.healthyClusters),
      el('td', {class: 'bar-cell'}, el('div', {class: 'bar', title: r.nominalQuotaText + ' quota against ' + r.allocatableText + ' allocatable'},
          el('div', {class: 'bar-nominal', width: '100%'}),
          el('div', {class: 'bar-used', width: percent(r.allocatable, Math.max(r.allocatable, r.nominalQuota))}))),
      el('td', {class: 'marks'},
          r.overcommitted ? el('span', {class: 'badge badge-blocked mark-overcommitted',
              title: 'more quota declared than the healthy clusters have'}, 'over-committed') : null,
          idle ? el('span', {class: 'badge badge-waiting mark-idle',
              title: 'free on the clusters beyond what unused quota can take'}, r.idleBeyondQuotaText + ' idle') : null,
          !r.overcommitted && !idle ? el('span', {class: 'badge badge-ok'}, 'balanced') : null));
}
