// The dashboard: five views over one live snapshot from /dashboard/stream.
import {follow, onUnauthorized} from './stream.js';
import {renderCohorts} from './cohorts.js';
import {renderPending} from './pending.js';
import {renderClusters} from './clusters.js';
import {renderCapacity} from './capacity.js';
import {renderEvents} from './events.js';
import {explain} from './explain.js';

const VIEWS = ['cohorts', 'pending', 'clusters', 'capacity', 'events'];
const $ = id => document.getElementById(id);
let snapshot = null;
let view = VIEWS.includes(location.hash.slice(1)) ? location.hash.slice(1) : 'cohorts';
let selected = null;

function render() {
  for (const name of VIEWS) {
    $('view-' + name).hidden = name !== view;
    $('tab-' + name).classList.toggle('active', name === view);
    $('tab-' + name).setAttribute('aria-selected', String(name === view));
  }
  if (!snapshot) return;
  if (view === 'cohorts') renderCohorts($('view-cohorts'), snapshot);
  if (view === 'pending') renderPending($('view-pending'), snapshot, select, selected);
  if (view === 'clusters') renderClusters($('view-clusters'), snapshot);
  if (view === 'capacity') renderCapacity($('view-capacity'), snapshot);
  if (view === 'events') renderEvents($('event-list'), $('event-namespace'), $('event-reason'), snapshot);
}

function select(namespace, name) {
  selected = namespace + '/' + name;
  render();
  explain($('explain'), $('explain-body'), $('explain-title'), namespace, name);
}

function connection(state) {
  const badge = $('connection');
  badge.textContent = state;
  badge.className = 'badge ' + (state === 'live' ? 'badge-ok' : 'badge-waiting');
}

for (const name of VIEWS) {
  $('tab-' + name).addEventListener('click', () => {
    view = name;
    history.replaceState(null, '', '#' + name);
    render();
  });
}
$('explain-close').addEventListener('click', () => {
  $('explain').hidden = true;
  selected = null;
  render();
});
$('event-namespace').addEventListener('change', render);
$('event-reason').addEventListener('change', render);

follow('/dashboard/stream', next => { snapshot = next; render(); }, connection);
// Signed out (or the session ended): say how to sign in; opening a fresh link reloads the page.
onUnauthorized(() => { $('sign-in').hidden = false; });
setInterval(render, 5000); // ages move on between snapshots
render();
