// View 2: every ClusterQueue's pending workloads in the scheduler's order, each with its one-line
// answer (the pending reason under it when that says more); a row opens the full explanation.
import {age, el, empty} from './dom.js';

export function renderPending(container, snapshot, onSelect, selected) {
  const queues = snapshot.clusterQueues || [];
  if (queues.length === 0) return container.replaceChildren(empty('No ClusterQueues yet.'));
  const total = queues.reduce((sum, q) => sum + q.pendingCount, 0);
  container.replaceChildren(
      el('p', {class: 'muted'}, total === 0 ? 'Nothing is waiting.' : total + (total === 1 ? ' workload waits' : ' workloads wait') + '. Click one to see why.'),
      ...queues.map(q => queue(q, onSelect, selected)));
}

function queue(cq, onSelect, selected) {
  const title = el('h2', null, cq.name, el('span', {class: 'muted'},
      ' · ' + cq.pendingCount + ' pending' + (cq.cohort ? ' · cohort ' + cq.cohort : '')));
  if (cq.pendingCount === 0) return el('article', {class: 'card', 'data-queue': cq.name}, title);
  const shown = cq.pending.length < cq.pendingCount
      ? el('p', {class: 'muted small'}, 'First ' + cq.pending.length + ' of ' + cq.pendingCount + ' shown.') : null;
  return el('article', {class: 'card', 'data-queue': cq.name}, title,
      el('table', {class: 'rows'},
          el('thead', null, el('tr', null, ['#', 'Workload', 'Priority', 'LocalQueue', 'Age', 'Why it waits']
              .map(h => el('th', null, h)))),
          el('tbody', null, cq.pending.map(w => row(w, onSelect, selected)))),
      shown);
}

function row(w, onSelect, selected) {
  const key = w.namespace + '/' + w.name;
  return el('tr', {class: 'pending-row' + (key === selected ? ' selected' : ''), 'data-workload': key, tabindex: 0,
        onclick: () => onSelect(w.namespace, w.name),
        onkeydown: e => { if (e.key === 'Enter') onSelect(w.namespace, w.name); }},
      el('td', {class: 'num'}, w.position),
      el('td', null, el('span', {class: 'strong'}, w.name), el('div', {class: 'muted small'}, w.namespace)),
      el('td', {class: 'num'}, w.priority),
      el('td', null, w.localQueue, el('div', {class: 'muted small'}, '#' + w.positionInLocalQueue + ' in queue')),
      el('td', {class: 'nowrap'}, age(w.created)),
      el('td', {class: 'reason'}, el('div', {class: 'one-line'}, w.answer || w.pendingReason || ''),
          w.pendingReason && w.answer && w.answer !== w.pendingReason
              ? el('div', {class: 'muted small pending-reason'}, w.pendingReason) : null));
}
