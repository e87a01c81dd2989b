// Every request the page makes: 401 handling, and the live feed read with fetch(), reconnecting with
// backoff. The page holds no token: a one-time sign-in link (kubectl berth dashboard) leaves an
// HttpOnly session cookie, which the browser sends with these same-origin reads and the page cannot read.

const SILENCE_LIMIT_MS = 40000; // the server sends a heartbeat every 15 s
let unauthorized = () => {};

export function onUnauthorized(handler) { unauthorized = handler; }

export async function apiFetch(path, options = {}) {
  const headers = new Headers(options.headers || {});
  const response = await fetch(path, {...options, headers, cache: 'no-store', credentials: 'same-origin'});
  if (response.status === 401) unauthorized();
  return response;
}

/** Follows a text/event-stream; calls onSnapshot with each parsed snapshot, onState with live/reconnecting. */
export function follow(path, onSnapshot, onState) {
  let failures = 0;
  let current = null;

  async function connect() {
    const controller = new AbortController();
    current = controller;
    let heard = Date.now();
    let refused = false;
    const watchdog = setInterval(() => {
      if (Date.now() - heard > SILENCE_LIMIT_MS) controller.abort();
    }, 5000);
    try {
      const response = await apiFetch(path, {signal: controller.signal, headers: {Accept: 'text/event-stream'}});
      refused = response.status === 401;
      if (!response.ok) throw new Error('HTTP ' + response.status);
      failures = 0;
      onState('live');
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const {value, done} = await reader.read();
        if (done) break;
        heard = Date.now();
        buffer += value.replace(/\r\n/g, '\n');
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          frame(buffer.slice(0, end), onSnapshot);
          buffer = buffer.slice(end + 2);
        }
      }
    } catch (e) {
      // dropped, refused or aborted by the watchdog: reconnect below
    } finally {
      clearInterval(watchdog);
    }
    if (current !== controller) return;
    if (refused) return onState('sign-in needed'); // a sign-in link reloads the page
    failures++;
    onState('reconnecting');
    setTimeout(connect, Math.min(15000, 250 * 2 ** Math.min(failures, 6)));
  }

  connect();
}

function frame(text, onSnapshot) {
  let event = 'message';
  const data = [];
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (event === 'snapshot' && data.length > 0) onSnapshot(JSON.parse(data.join('\n')));
}
