// View 1: for each cohort, each flavor/resource, each ClusterQueue's nominal quota, usage,
// borrowed and lent, as one bar per queue, from the borrowing ledger.
import {el, empty, percent} from './dom.js';

export function renderCohorts(container, snapshot) {
  const groups = snapshot.cohorts || [];
  if (groups.length === 0) return container.replaceChildren(empty('No ClusterQueues yet.'));
  container.replaceChildren(el('div', {class: 'legend'},
      legend('bar-used', 'usage within nominal quota'), legend('bar-borrowed', 'borrowed'),
      legend('bar-lent', 'lent to the cohort'), legend('bar-nominal', 'nominal quota')),
  ...groups.map(cohort));
}

function legend(kind, text) {
  return el('span', {class: 'legend-item'}, el('span', {class: 'swatch ' + kind}), text);
}

function cohort(group) {
  const title = group.cohort ? 'Cohort ' + group.cohort : 'ClusterQueues without a cohort';
  const resources = (group.resources || []).filter(r => r.queues.some(q => q.nominal > 0 || q.usage > 0));
  return el('article', {class: 'card cohort', 'data-cohort': group.cohort},
      el('h2', null, title, group.parent ? el('span', {class: 'muted'}, ' in ' + group.parent) : null),
      el('p', {class: 'muted'}, 'ClusterQueues: ', queueNames(group)),
      resources.length === 0 ? empty('No quota defined.') : el('div', {class: 'resources'}, resources.map(resource)));
}

function queueNames(group) {
  const pending = new Map();
  for (const r of group.resources || []) for (const q of r.queues) pending.set(q.name, q.pendingWorkloads);
  return (group.clusterQueues || []).map((name, i) => [i > 0 ? ', ' : '', el('span', {class: 'strong'}, name),
      pending.get(name) > 0 ? el('span', {class: 'pending-count'}, ' (' + pending.get(name) + ' pending)') : null]);
}

function resource(group) {
  const scale = Math.max(1, ...group.queues.map(q => Math.max(q.nominal, q.usage)));
  return el('section', {class: 'resource'},
      el('h3', null, group.flavor, el('span', {class: 'muted'}, ' · ' + group.resource),
          group.borrowedFromCohort && group.borrowedFromCohort !== '0'
              ? el('span', {class: 'muted'}, ' · from the cohort itself: ' + group.borrowedFromCohort) : null),
      el('table', {class: 'bars'}, el('tbody', null, group.queues.map(q => row(q, scale)))));
}

function row(queue, scale) {
  const within = Math.min(queue.usage, queue.nominal);
  const notes = [];
  if (queue.borrowed > 0) notes.push('borrowed ' + queue.borrowedText + ' from ' + queue.borrowedFrom.join(', '));
  if (queue.lent > 0) notes.push('lent ' + queue.lentText + ' to ' + queue.lentTo.join(', '));
  return el('tr', {class: 'queue-row', 'data-queue': queue.name, 'data-borrowed': queue.borrowedText},
      el('th', {scope: 'row'}, queue.name),
      el('td', {class: 'bar-cell'},
          el('div', {class: 'bar', title: queue.usageText + ' used of ' + queue.nominalText + ' nominal'},
              el('div', {class: 'bar-nominal', width: percent(queue.nominal, scale)}),
              el('div', {class: 'bar-used', width: percent(within, scale)}),
              queue.borrowed > 0 ? el('div', {class: 'bar-borrowed', left: percent(queue.nominal, scale),
                  width: percent(queue.borrowed, scale)}) : null,
              queue.lent > 0 ? el('div', {class: 'bar-lent', left: percent(queue.nominal - queue.lent, scale),
                  width: percent(queue.lent, scale)}) : null)),
      el('td', {class: 'numbers'},
          el('span', {class: 'strong'}, queue.usageText + ' / ' + queue.nominalText),
          notes.length ? el('div', {class: 'muted small'}, notes.join(' · ')) : null));
}
