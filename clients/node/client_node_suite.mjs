// @kubernetes/client-node against a Berth manager: each case prints "ok <case>" or "FAIL <case> <json message>".
// Usage: node client_node_suite.mjs <kubeconfig> <context> [case ...]
// Run by manager/src/test/java/dev/berth/manager/clients/NodeClientTest.java. After each command the
// stored object is read back with a plain GET and compared with what the command promised
// (stored_invariant.mjs).
import * as k8s from '@kubernetes/client-node';
import { ABSENT, copy, expectStored, plainGet } from './stored_invariant.mjs';

const [kubeconfigFile, context, ...only] = process.argv.slice(2);
const kc = new k8s.KubeConfig();
kc.loadFromFile(kubeconfigFile);
kc.setCurrentContext(context);

const core = kc.makeApiClient(k8s.CoreV1Api);
const batch = kc.makeApiClient(k8s.BatchV1Api);
const apps = kc.makeApiClient(k8s.AppsV1Api);
const custom = kc.makeApiClient(k8s.CustomObjectsApi);
const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
const NS = 'node-suite';
const KUEUE = { group: 'kueue.x-k8s.io', version: 'v1beta2' };
const KUEUE_PATH = '/apis/kueue.x-k8s.io/v1beta2';
const as = (strategy) => k8s.setHeaderOptions('Content-Type', strategy);

function localQueue(name, labels = {}) {
  return { apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'LocalQueue', metadata: { name, namespace: NS, labels }, spec: { clusterQueue: 'team-a-cq' } };
}

function clusterQueue(name, cpu) {
  return {
    apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'ClusterQueue', metadata: { name, labels: { suite: 'node' } },
    spec: {
      namespaceSelector: {},
      resourceGroups: [{ coveredResources: ['cpu'], flavors: [{ name: 'default-cpu', resources: [{ name: 'cpu', nominalQuota: cpu }] }] }],
    },
  };
}

// No kind or apiVersion: client-node's V1Job objects often leave them out.
function job(name) {
  return {
    metadata: { name, namespace: 'team-a', labels: { 'kueue.x-k8s.io/queue-name': 'team-a-queue' } },
    spec: {
      suspend: true,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36', command: ['sleep', '1'],
        env: [{ name: 'A', value: '1' }], resources: { requests: { cpu: '1' } } }] } },
    },
  };
}

// Not queued: a Deployment whose pod template may change.
function deployment(name) {
  return {
    metadata: { name, namespace: 'team-a', labels: { app: name } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'busybox:1.36', command: ['sleep', '1'],
        env: [{ name: 'A', value: '1' }], resources: { requests: { cpu: '1' } } }] } },
    },
  };
}

async function eventually(what, check, timeoutMillis = 15000) {
  const deadline = Date.now() + timeoutMillis;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMillis} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function expectCode(code, what, promise) {
  try {
    await promise;
  } catch (e) {
    if (e.code === code) return e;
    throw new Error(`${what}: expected ${code}, got ${e.code}: ${e.body ?? e.message}`);
  }
  throw new Error(`${what}: expected ${code}, it succeeded`);
}

// A read-modify-write as controllers write it (client-go's retry.RetryOnConflict): the manager writes the
// object's status meanwhile (a ClusterQueue's Active condition, a LocalQueue's counts, a queued Job's
// suspend), which moves its resourceVersion, so a replace may get 409 Conflict; read again and redo the change.
async function replaceOnConflict(path, change, replace) {
  for (let attempt = 1; ; attempt++) {
    const current = change(copy((await plainGet(kc, path)).body));
    try {
      await replace(current);
      return current;
    } catch (e) {
      if (e.code !== 409 || attempt === 5) throw e;
    }
  }
}

async function ownedWorkload(uid) {
  const list = await custom.listNamespacedCustomObject({ ...KUEUE, namespace: 'team-a', plural: 'workloads' });
  return list.items.find((w) => (w.metadata.ownerReferences ?? []).some((o) => o.uid === uid));
}

const cases = {
  async 'crud-clusterqueue'() {
    const submitted = clusterQueue('node-cq', '4');
    await custom.createClusterCustomObject({ ...KUEUE, plural: 'clusterqueues', body: submitted });
    await expectStored(kc, `${KUEUE_PATH}/clusterqueues/node-cq`, submitted);
    const replaced = await replaceOnConflict(`${KUEUE_PATH}/clusterqueues/node-cq`, (cq) => {
      cq.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota = '6';
      delete cq.status;
      return cq;
    }, (body) => custom.replaceClusterCustomObject({ ...KUEUE, plural: 'clusterqueues', name: 'node-cq', body }));
    await expectStored(kc, `${KUEUE_PATH}/clusterqueues/node-cq`, { spec: replaced.spec, metadata: { labels: { suite: 'node' } } });
    const list = await custom.listClusterCustomObject({ ...KUEUE, plural: 'clusterqueues' });
    if (!list.items.some((cq) => cq.metadata.name === 'node-cq')) throw new Error('node-cq missing from the list');
    await custom.deleteClusterCustomObject({ ...KUEUE, plural: 'clusterqueues', name: 'node-cq' });
    await expectStored(kc, `${KUEUE_PATH}/clusterqueues/node-cq`, ABSENT);
  },

  async 'crud-localqueue'() {
    const submitted = localQueue('crud-lq', { team: 'a' });
    await custom.createNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', body: submitted });
    await expectStored(kc, `${KUEUE_PATH}/namespaces/${NS}/localqueues/crud-lq`, submitted);
    await replaceOnConflict(`${KUEUE_PATH}/namespaces/${NS}/localqueues/crud-lq`, (lq) => {
      lq.metadata.labels.tier = 'gold';
      return lq;
    }, (body) => custom.replaceNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', name: 'crud-lq', body }));
    await expectStored(kc, `${KUEUE_PATH}/namespaces/${NS}/localqueues/crud-lq`, { metadata: { labels: { team: 'a', tier: 'gold' } }, spec: submitted.spec });
    await custom.deleteNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', name: 'crud-lq' });
    await expectStored(kc, `${KUEUE_PATH}/namespaces/${NS}/localqueues/crud-lq`, ABSENT);
  },

  async 'crud-job'() {
    const submitted = job('node-crud-job');
    const created = await batch.createNamespacedJob({ namespace: 'team-a', body: submitted });
    if (created.kind !== 'Job' || created.apiVersion !== 'batch/v1') throw new Error(`created ${created.apiVersion}/${created.kind}`);
    const path = '/apis/batch/v1/namespaces/team-a/jobs/node-crud-job';
    const stored = await expectStored(kc, path, submitted);
    const read = await batch.readNamespacedJob({ name: 'node-crud-job', namespace: 'team-a' });
    if (read.metadata.uid !== stored.metadata.uid) throw new Error('readNamespacedJob returned another uid');
    await replaceOnConflict(path, (current) => {
      current.metadata.labels.owner = 'node';
      return current;
    }, (body) => batch.replaceNamespacedJob({ name: 'node-crud-job', namespace: 'team-a', body }));
    const expected = copy(submitted);
    expected.metadata.labels.owner = 'node';
    await expectStored(kc, path, expected);
    await batch.deleteNamespacedJob({ name: 'node-crud-job', namespace: 'team-a', propagationPolicy: 'Background' });
    await expectStored(kc, path, ABSENT);
  },

  async 'patch-json'() {
    await custom.createNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', body: localQueue('json-lq', { a: '1' }) });
    const path = `${KUEUE_PATH}/namespaces/${NS}/localqueues/json-lq`;
    // Optimistic concurrency as a client does it: test the resourceVersion just read, retry when the
    // manager wrote the queue's status in between.
    let before;
    for (let attempt = 1; ; attempt += 1) {
      before = (await plainGet(kc, path)).body;
      const patch = [
        { op: 'test', path: '/metadata/resourceVersion', value: before.metadata.resourceVersion },
        { op: 'add', path: '/metadata/labels/b', value: '2' },
        { op: 'remove', path: '/metadata/labels/a' },
        { op: 'replace', path: '/spec/clusterQueue', value: 'team-b-cq' },
      ];
      try {
        await custom.patchNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', name: 'json-lq', body: patch }, as(k8s.PatchStrategy.JsonPatch));
        break;
      } catch (e) {
        if (e.code !== 422 || attempt === 5) throw e;
      }
    }
    await expectStored(kc, path, { metadata: { labels: { a: ABSENT, b: '2' } }, spec: { clusterQueue: 'team-b-cq' } });
    const stale = [{ op: 'test', path: '/metadata/resourceVersion', value: before.metadata.resourceVersion }, { op: 'add', path: '/metadata/labels/c', value: '3' }];
    await expectCode(422, 'a JSON patch whose test fails', custom.patchNamespacedCustomObject(
      { ...KUEUE, namespace: NS, plural: 'localqueues', name: 'json-lq', body: stale }, as(k8s.PatchStrategy.JsonPatch)));
    await expectStored(kc, path, { metadata: { labels: { b: '2', c: ABSENT } } });
  },

  async 'patch-merge-removes-label-with-null'() {
    const submitted = localQueue('merge-lq', { keep: 'yes', drop: 'me' });
    await custom.createNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', body: submitted });
    await custom.patchNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', name: 'merge-lq',
      body: { metadata: { labels: { drop: null, added: 'x' } }, spec: { stopPolicy: 'Hold' } } }, as(k8s.PatchStrategy.MergePatch));
    await expectStored(kc, `${KUEUE_PATH}/namespaces/${NS}/localqueues/merge-lq`,
      { metadata: { labels: { keep: 'yes', drop: ABSENT, added: 'x' } }, spec: { clusterQueue: 'team-a-cq', stopPolicy: 'Hold' } });
  },

  async 'patch-strategic-job'() {
    // A Job's pod template is immutable, as on kube-apiserver: a strategic patch of its env is a 422 and stores
    // nothing; one of its labels merges.
    const submitted = job('node-smp-job');
    await batch.createNamespacedJob({ namespace: 'team-a', body: submitted });
    const envPatch = { spec: { template: { spec: { containers: [{ name: 'main', env: [{ name: 'B', value: '2' }] }] } } } };
    await expectCode(422, 'a strategic patch of a Job\'s pod template',
      batch.patchNamespacedJob({ name: 'node-smp-job', namespace: 'team-a', body: envPatch }, as(k8s.PatchStrategy.StrategicMergePatch)));
    await batch.patchNamespacedJob({ name: 'node-smp-job', namespace: 'team-a', body: { metadata: { labels: { patched: 'smp' } } } },
      as(k8s.PatchStrategy.StrategicMergePatch));
    const expected = copy(submitted);
    expected.metadata.labels.patched = 'smp';
    await expectStored(kc, '/apis/batch/v1/namespaces/team-a/jobs/node-smp-job', expected);
  },

  async 'patch-strategic-deployment'() {
    const submitted = deployment('node-smp-deployment');
    await apps.createNamespacedDeployment({ namespace: 'team-a', body: submitted });
    const patch = { metadata: { labels: { patched: 'smp' } },
      spec: { template: { spec: { containers: [{ name: 'main', env: [{ name: 'B', value: '2' }] }] } } } };
    await apps.patchNamespacedDeployment({ name: 'node-smp-deployment', namespace: 'team-a', body: patch }, as(k8s.PatchStrategy.StrategicMergePatch));
    const expected = copy(submitted); // containers merge by name, env by name: image, command and resources stay
    expected.metadata.labels.patched = 'smp';
    // Without $setElementOrder, kube-apiserver puts patch elements the live list lacks ahead of the
    // live ones (strategicpatch mergeSortedSlice: an element not in the server order sorts first).
    expected.spec.template.spec.containers[0].env = [{ name: 'B', value: '2' }, { name: 'A', value: '1' }];
    await expectStored(kc, '/apis/apps/v1/namespaces/team-a/deployments/node-smp-deployment', expected);
  },

  async 'server-side-apply-conflict-and-force'() {
    const applied = clusterQueue('ssa-cq', '2');
    await objects.patch(applied, undefined, undefined, 'node-a', false, k8s.PatchStrategy.ServerSideApply);
    const path = `${KUEUE_PATH}/clusterqueues/ssa-cq`;
    await expectStored(kc, path, applied);
    const other = clusterQueue('ssa-cq', '3');
    await expectCode(409, 'an apply by another manager over node-a\'s field',
      objects.patch(other, undefined, undefined, 'node-b', false, k8s.PatchStrategy.ServerSideApply));
    await expectStored(kc, path, applied);
    await objects.patch(other, undefined, undefined, 'node-b', true, k8s.PatchStrategy.ServerSideApply);
    const stored = await expectStored(kc, path, other);
    if (!(stored.metadata.managedFields ?? []).some((f) => f.manager === 'node-b')) throw new Error('node-b is not a field manager');
    await custom.deleteClusterCustomObject({ ...KUEUE, plural: 'clusterqueues', name: 'ssa-cq' });
  },

  async 'watch'() {
    const seen = [];
    const watch = new k8s.Watch(kc);
    const controller = await watch.watch(`${KUEUE_PATH}/namespaces/${NS}/localqueues`, {},
      (phase, object) => seen.push(`${phase} ${object.metadata.name}`), () => {});
    try {
      await custom.createNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', body: localQueue('watched-lq') });
      await eventually('ADDED watched-lq', () => seen.includes('ADDED watched-lq'));
      await custom.deleteNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', name: 'watched-lq' });
      await eventually('DELETED watched-lq', () => seen.includes('DELETED watched-lq'));
    } finally {
      controller.abort();
    }
  },

  async 'informer'() {
    const path = `${KUEUE_PATH}/namespaces/${NS}/localqueues`;
    const informer = k8s.makeInformer(kc, path, () => custom.listNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues' }));
    const events = [];
    // The manager writes the LocalQueue's status too (as Kueue does), so an update may arrive before the
    // patch's: each event notes whether its object carries the patched label.
    for (const verb of [k8s.ADD, k8s.UPDATE, k8s.DELETE]) {
      informer.on(verb, (o) => events.push(`${verb} ${o.metadata.name}${o.metadata?.labels?.seen === 'yes' ? ' seen' : ''}`));
    }
    informer.on(k8s.ERROR, () => {});
    await informer.start();
    try {
      await custom.createNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', body: localQueue('informed-lq') });
      await eventually('add', () => events.includes('add informed-lq'));
      await custom.patchNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', name: 'informed-lq',
        body: { metadata: { labels: { seen: 'yes' } } } }, as(k8s.PatchStrategy.MergePatch));
      await eventually('update', () => events.includes('update informed-lq seen'));
      const cached = informer.get('informed-lq', NS);
      if (cached?.metadata?.labels?.seen !== 'yes') throw new Error(`the informer's cache holds ${JSON.stringify(cached?.metadata)}`);
      await custom.deleteNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', name: 'informed-lq' });
      await eventually('delete', () => events.some((e) => e.startsWith('delete informed-lq')));
    } finally {
      await informer.stop();
    }
  },

  async 'pagination'() {
    const names = ['page-1', 'page-2', 'page-3', 'page-4', 'page-5'];
    for (const name of names) {
      await custom.createNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', body: localQueue(name, { paged: 'yes' }) });
    }
    const collected = [];
    let token;
    let pages = 0;
    do {
      const page = await custom.listNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues',
        labelSelector: 'paged=yes', limit: 2, _continue: token });
      if (page.items.length > 2) throw new Error(`a page of limit 2 held ${page.items.length} items`);
      collected.push(...page.items.map((i) => i.metadata.name));
      token = page.metadata?._continue ?? page.metadata?.continue;
      pages += 1;
    } while (token && pages < 10);
    if (pages !== 3 || JSON.stringify(collected.sort()) !== JSON.stringify(names)) {
      throw new Error(`pages ${pages}, collected ${JSON.stringify(collected)}`);
    }
  },

  async 'dry-run'() {
    await custom.createNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', body: localQueue('dry-lq'), dryRun: 'All' });
    await expectStored(kc, `${KUEUE_PATH}/namespaces/${NS}/localqueues/dry-lq`, ABSENT);
    const submitted = localQueue('kept-lq');
    await custom.createNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', body: submitted });
    await custom.deleteNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', name: 'kept-lq', dryRun: 'All' });
    await expectStored(kc, `${KUEUE_PATH}/namespaces/${NS}/localqueues/kept-lq`, submitted);
    await custom.patchNamespacedCustomObject({ ...KUEUE, namespace: NS, plural: 'localqueues', name: 'kept-lq', dryRun: 'All',
      body: { spec: { clusterQueue: 'team-b-cq' } } }, as(k8s.PatchStrategy.MergePatch));
    await expectStored(kc, `${KUEUE_PATH}/namespaces/${NS}/localqueues/kept-lq`, submitted);
  },

  async 'cascading-delete-orphan-keeps-workload'() {
    const created = await batch.createNamespacedJob({ namespace: 'team-a', body: job('node-orphan-job') });
    const workload = await eventually('the Job\'s Workload', () => ownedWorkload(created.metadata.uid));
    await batch.deleteNamespacedJob({ name: 'node-orphan-job', namespace: 'team-a', propagationPolicy: 'Orphan' });
    await expectStored(kc, '/apis/batch/v1/namespaces/team-a/jobs/node-orphan-job', ABSENT);
    const path = `${KUEUE_PATH}/namespaces/team-a/workloads/${workload.metadata.name}`;
    await expectStored(kc, path, { metadata: { name: workload.metadata.name, ownerReferences: ABSENT }, spec: { queueName: 'team-a-queue' } });
    await custom.deleteNamespacedCustomObject({ ...KUEUE, namespace: 'team-a', plural: 'workloads', name: workload.metadata.name });
  },

  async 'cascading-delete-background-removes-workload'() {
    const created = await batch.createNamespacedJob({ namespace: 'team-a', body: job('node-background-job') });
    const workload = await eventually('the Job\'s Workload', () => ownedWorkload(created.metadata.uid));
    await batch.deleteNamespacedJob({ name: 'node-background-job', namespace: 'team-a', propagationPolicy: 'Background' });
    const path = `${KUEUE_PATH}/namespaces/team-a/workloads/${workload.metadata.name}`;
    await eventually('the Workload to go', async () => (await plainGet(kc, path)).status === 404);
  },

  async 'identity'() {
    const authn = kc.makeApiClient(k8s.AuthenticationV1Api);
    const review = await authn.createSelfSubjectReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    if (review.status?.userInfo?.username !== 'berth-admin') throw new Error(`SelfSubjectReview: ${JSON.stringify(review.status)}`);
    const authz = kc.makeApiClient(k8s.AuthorizationV1Api);
    const access = await authz.createSelfSubjectAccessReview({ body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { group: 'kueue.x-k8s.io', resource: 'clusterqueues', verb: 'delete' } } } });
    if (access.status?.allowed !== true) throw new Error(`SelfSubjectAccessReview: ${JSON.stringify(access.status)}`);
  },
};

async function main() {
  try {
    await core.createNamespace({ body: { metadata: { name: NS } } });
  } catch (e) {
    if (e.code !== 409) throw e;
  }
  let failed = 0;
  for (const [name, run] of Object.entries(cases)) {
    if (only.length && !only.includes(name)) continue;
    try {
      await run();
      console.log(`ok ${name}`);
    } catch (e) {
      failed += 1;
      console.log(`FAIL ${name} ${JSON.stringify(e.code ? `${e.code} ${e.body ?? e.message}` : (e.stack ?? String(e)))}`);
    }
  }
  console.log(`done ${failed} failed`);
}

await main();
process.exit(0);
