// View 4: core/v1 Events, newest first, filtered by namespace and reason.
import {age, el, empty} from './dom.js';

export function renderEvents(list, namespaceSelect, reasonSelect, snapshot) {
  const events = snapshot.events || [];
  options(namespaceSelect, events.map(e => e.namespace));
  options(reasonSelect, events.map(e => e.reason));
  const ns = namespaceSelect.value;
  const reason = reasonSelect.value;
  const shown = events.filter(e => (!ns || e.namespace === ns) && (!reason || e.reason === reason));
  if (shown.length === 0) {
    return list.replaceChildren(empty(events.length === 0 ? 'No events recorded yet.' : 'No event matches the filter.'));
  }
  list.replaceChildren(el('table', {class: 'rows'},
      el('thead', null, el('tr', null, ['Last seen', 'Type', 'Reason', 'Object', 'Message', 'Count']
          .map(h => el('th', null, h)))),
      el('tbody', null, shown.map(e => el('tr', {class: 'event-row' + (e.type === 'Warning' ? ' warning' : '')},
          el('td', {class: 'nowrap'}, age(e.lastTimestamp)),
          el('td', null, e.type || ''),
          el('td', {class: 'strong'}, e.reason || ''),
          el('td', null, (e.objectKind || '') + ' ' + (e.namespace ? e.namespace + '/' : '') + (e.objectName || '')),
          el('td', {class: 'reason'}, e.message || ''),
          el('td', {class: 'num'}, e.count))))));
}

/** Keeps a select's options to the values present (plus "all"), and its current choice. */
function options(select, values) {
  const wanted = [...new Set(values.filter(Boolean))].sort();
  const current = select.value;
  if (current && !wanted.includes(current)) wanted.push(current);
  const have = [...select.options].slice(1).map(o => o.value);
  if (have.join('\u0000') === wanted.join('\u0000')) return;
  select.replaceChildren(el('option', {value: ''}, 'all'), ...wanted.map(v => el('option', {value: v}, v)));
  select.value = current;
}
