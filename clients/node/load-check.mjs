import * as k8s from '@kubernetes/client-node';
const kc = new k8s.KubeConfig();
kc.loadFromOptions({clusters:[{name:'c',server:'http://127.0.0.1:18765',skipTLSVerify:true}],users:[{name:'u'}],contexts:[{name:'x',cluster:'c',user:'u'}],currentContext:'x'});
const api = kc.makeApiClient(k8s.CoreV1Api);
const r = await api.listNamespace();
console.log('ok', r.items.map(n => n.metadata.name).join(','));
