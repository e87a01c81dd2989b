// The no-data-loss invariant: after a command, what a plain GET returns holds everything the command
// promised. `expected` is computed by the caller independently of the server (the submitted object
// with the patch applied by hand). Objects match as a subset (the server adds uid, resourceVersion,
// status, defaults); arrays match element by element with the same length; ABSENT means "no such
// key". Nothing stored may carry a strategic-merge directive key ($setElementOrder/..., $patch).
import http from 'node:http';
import https from 'node:https';

export const ABSENT = Symbol('absent');

/** GET path on the current context's server with its credentials; resolves {status, body}. */
export async function plainGet(kc, path) {
  const url = new URL(kc.getCurrentCluster().server + path);
  const options = { method: 'GET', hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers: {} };
  await kc.applyToHTTPSOptions(options);
  const plain = url.protocol === 'http:';
  if (plain) delete options.agent;
  return new Promise((resolve, reject) => {
    const request = (plain ? http : https).request(options, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, body: text ? JSON.parse(text) : null }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** Differences between expected and actual, as "path: expected X, stored Y" lines. */
export function differences(expected, actual, path = '') {
  if (expected === ABSENT) return actual === undefined ? [] : [`${path}: expected absent, stored ${JSON.stringify(actual)}`];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected ${JSON.stringify(expected)}, stored ${JSON.stringify(actual)}`];
    if (actual.length !== expected.length) {
      return [`${path}: expected ${expected.length} items ${JSON.stringify(expected)}, stored ${actual.length} ${JSON.stringify(actual)}`];
    }
    return expected.flatMap((item, i) => differences(item, actual[i], `${path}[${i}]`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return [`${path}: expected ${JSON.stringify(expected)}, stored ${JSON.stringify(actual)}`];
    }
    return Object.keys(expected).flatMap((key) => differences(expected[key], actual[key], `${path}.${key}`));
  }
  return String(expected) === String(actual) && typeof actual !== 'object' ? []
    : [`${path}: expected ${JSON.stringify(expected)}, stored ${JSON.stringify(actual)}`];
}

function directiveKeys(value, path = '') {
  if (Array.isArray(value)) return value.flatMap((item, i) => directiveKeys(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.keys(value).flatMap((key) => (key.startsWith('$') ? [`${path}.${key}: a patch directive was stored`] : [])
    .concat(directiveKeys(value[key], `${path}.${key}`)));
}

/** Reads path back and throws with a diff unless it holds expected (or is gone, when expected is ABSENT). */
export async function expectStored(kc, path, expected) {
  const { status, body } = await plainGet(kc, path);
  if (expected === ABSENT) {
    if (status !== 404) throw new Error(`no-data-loss: ${path} should be gone, GET answered ${status}`);
    return body;
  }
  if (status !== 200) throw new Error(`no-data-loss: GET ${path} answered ${status}: ${JSON.stringify(body)}`);
  const diff = differences(expected, body).concat(directiveKeys(body));
  if (diff.length) throw new Error(`no-data-loss: ${path} differs from what the command promised:\n  ${diff.join('\n  ')}`);
  return body;
}

/** A deep copy, to build an expected object from a submitted one without touching it. */
export function copy(value) {
  return JSON.parse(JSON.stringify(value));
}
