// EngageKit sandbox UI.
//
// A single ES module, no framework, no build step. Every piece of data from the server (paths,
// headers, bodies, state rows) is hostile: the DOM is built with createElement/textContent only.
// The page's CSP forbids inline scripts and style attributes, so nothing here relies on them.

const API = '/_sandbox/api';
const MAX_REQUESTS = 2000;
const TABS = ['requests', 'faults', 'state', 'tokens'];

// ---------------------------------------------------------------------------------------------
// Test hook: resolves once the first requests fetch and the first EventSource `open` happened.

let markFetched;
let markOpened;
const fetched = new Promise((resolve) => { markFetched = resolve; });
const opened = new Promise((resolve) => { markOpened = resolve; });
window.sandboxUI = { ready: Promise.all([fetched, opened]).then(() => undefined) };

// ---------------------------------------------------------------------------------------------
// Page state

const state = {
  tab: 'requests',
  emulators: [],           // from the overview
  requests: [],            // request summaries, oldest first, at most MAX_REQUESTS
  rows: new Map(),         // sequence -> <tr> currently in the table (only those matching filters)
  loads: new Set(),        // in-flight journal fetches, collecting live events meanwhile
  filter: { provider: '', status: '', text: '' },
  selected: null,          // selected sequence
  revealed: false,         // whether the selected request is shown with secrets
  secrets: null,           // names redacted in the selected request, to mark them once revealed
  detailToken: 0,          // guards against out-of-order detail responses
  faults: [],
  tokenLimit: null,
};

// ---------------------------------------------------------------------------------------------
// Small helpers

const $ = (id) => document.getElementById(id);

/** Creates an element. Attributes are set with setAttribute (functions become listeners); children
 *  may be nodes, strings (appended as text, never parsed), arrays, or null/false (skipped). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value == null || value === false) continue;
    if (typeof value === 'function') node.addEventListener(key.replace(/^on/, ''), value);
    else if (key === 'class') node.className = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  const kids = children.flat(Infinity).filter((c) => c != null && c !== false);
  node.append(...kids.map((c) => (c instanceof Node ? c : String(c))));
  return node;
}

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Calls the JSON API. Writes with a body always send JSON (the server refuses anything else). */
async function api(path, { method = 'GET', body } = {}) {
  const init = { method, headers: { Accept: 'application/json' } };
  if (['POST', 'PUT', 'PATCH'].includes(method)) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body ?? {});
  }
  const res = await fetch(`${API}/${path}`, init);
  if (!res.ok) throw new ApiError(res.status, await errorMessage(res));
  const text = res.status === 204 ? '' : await res.text();
  return text ? JSON.parse(text) : null;
}

/** The message of a failed call: `{"error": "..."}` from the API, `{"error": code,
 *  "error_description": "..."}` from the host's guard, or else the status line. */
async function errorMessage(res) {
  try {
    const json = await res.json();
    if (typeof json?.error_description === 'string') return json.error_description;
    if (typeof json?.error === 'string') return json.error;
    if (typeof json?.error?.message === 'string') return json.error.message;
  } catch { /* not JSON */ }
  return `${res.status} ${res.statusText}`.trim();
}

/** Shows (or hides, with no text) a message in an error/notice element. */
function showMessage(node, text) {
  node.textContent = text ?? '';
  node.hidden = !text;
}

const notice = (text) => showMessage($('notice'), text);
const pad = (n) => String(n).padStart(2, '0');

/** Local HH:MM:SS of an ISO date. */
function clock(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function dateTime(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso ?? '') : d.toLocaleString();
}

const fullPath = (r) => `${r.path ?? ''}${r.query ? `?${r.query}` : ''}`;
const statusClass = (status) => (status == null ? 'none' : `${Math.floor(status / 100)}xx`);

function millis(value) {
  if (value == null) return '—';
  return value < 10 ? value.toFixed(1) : String(Math.round(value));
}

function statusBadge(status, asBadge = false) {
  return el('span', { class: `status s${statusClass(status)}${asBadge ? ' badge' : ''}` }, status ?? '—');
}

/** Runs an async action with its button disabled, so double clicks don't double the call. */
async function busy(button, action) {
  button.disabled = true;
  try { return await action(); } finally { button.disabled = false; }
}

// ---------------------------------------------------------------------------------------------
// Tabs

function showTab(name) {
  const tab = TABS.includes(name) ? name : 'requests';
  state.tab = tab;
  for (const button of document.querySelectorAll('button[data-tab]')) {
    button.setAttribute('aria-selected', String(button.dataset.tab === tab));
  }
  for (const panel of document.querySelectorAll('[data-panel]')) panel.hidden = panel.dataset.panel !== tab;
  // The default tab leaves a bare address alone (a reload, a bookmark and tests see the URL they loaded).
  const bare = tab === 'requests' && location.hash === '';
  if (!bare && location.hash !== `#${tab}`) history.replaceState(null, '', `#${tab}`);
  if (tab === 'state') loadAllState();
  if (tab === 'tokens') loadTokens();
}

function wireTabs() {
  for (const button of document.querySelectorAll('button[data-tab]')) {
    button.addEventListener('click', () => showTab(button.dataset.tab));
  }
  window.addEventListener('hashchange', () => showTab(location.hash.slice(1)));
}

// ---------------------------------------------------------------------------------------------
// Overview: emulator ids feed the filters, the fault form and the state cards.

async function loadOverview() {
  try {
    const overview = await api('overview');
    state.emulators = overview?.emulators ?? [];
    fillEmulatorSelect($('filter-provider'), 'All');
    fillEmulatorSelect($('fault-emulator'), 'any');
    renderStateCards();
    setTokenLimit(overview?.tokenLifetimeLimitSeconds ?? null);
    if (state.tab === 'state') loadAllState();
  } catch (err) {
    notice(`Could not load the sandbox overview: ${err.message}`);
  }
}

/** Refills a select with "all/any" plus each emulator id, keeping the current choice. */
function fillEmulatorSelect(select, allLabel) {
  const current = select.value;
  select.replaceChildren(el('option', { value: '' }, allLabel),
    state.emulators.map((e) => el('option', { value: e.id }, e.id)));
  select.value = state.emulators.some((e) => e.id === current) ? current : '';
}

// ---------------------------------------------------------------------------------------------
// Live updates (Server-Sent Events). EventSource reconnects by itself; after a reconnect the
// journal and fault rules are fetched again, as events may have been missed meanwhile.

let source = null;
let opens = 0;
let retryDelay = 1000;

function setConnection(live) {
  const node = $('connection');
  node.dataset.state = live ? 'live' : 'reconnecting';
  node.textContent = live ? 'live' : 'reconnecting';
}

function connect() {
  source = new EventSource(`${API}/events`);
  source.addEventListener('open', () => {
    setConnection(true);
    retryDelay = 1000;
    if (opens++ > 0) resync();
    markOpened();
  });
  source.addEventListener('error', () => {
    setConnection(false);
    // A fatal error (e.g. the server answered 5xx) closes the source for good: open a new one.
    if (source.readyState === EventSource.CLOSED) {
      source.close();
      setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 15000);
    }
  });
  source.addEventListener('request', (event) => withData(event, addRequest));
  source.addEventListener('faults', (event) => withData(event, setFaults));
  source.addEventListener('cleared', () => clearJournal('The journal was cleared.'));
}

function withData(event, handler) {
  let data;
  try { data = JSON.parse(event.data); } catch { return; }
  handler(data);
}

function resync() {
  notice('');
  loadRequests();
  loadFaults();
}

// ---------------------------------------------------------------------------------------------
// Requests: journal, filters, list

/** Fetches the journal. Events arriving while the fetch is in flight are merged in afterwards. */
async function loadRequests() {
  const load = { items: [], cleared: false };
  state.loads.add(load);
  try {
    const list = await api('requests');
    const bySequence = new Map();
    for (const r of [...(load.cleared ? [] : list ?? []), ...load.items]) bySequence.set(r.sequence, r);
    state.requests = [...bySequence.values()].sort((a, b) => a.sequence - b.sequence).slice(-MAX_REQUESTS);
    renderRequestRows();
    markFetched();
  } catch (err) {
    notice(`Could not load the request journal: ${err.message}`);
  } finally {
    state.loads.delete(load);
  }
}

/** A `request` event: appends the summary and puts its row on top, leaving the selection alone. */
function addRequest(summary) {
  for (const load of state.loads) load.items.push(summary);
  if (state.requests.some((r) => r.sequence === summary.sequence)) return;
  state.requests.push(summary);
  while (state.requests.length > MAX_REQUESTS) removeRow(state.requests.shift().sequence);
  if (matchesFilter(summary)) {
    // Usually the newest, so on top; two requests finishing together may arrive out of order.
    const body = $('request-rows');
    const older = [...body.children].find((tr) => Number(tr.dataset.sequence) < summary.sequence);
    body.insertBefore(requestRow(summary), older ?? null);
  }
  updateCount();
}

function removeRow(sequence) {
  state.rows.get(sequence)?.remove();
  state.rows.delete(sequence);
}

/** Empties the list (a `cleared` event or the Clear button). */
function clearJournal(message) {
  for (const load of state.loads) { load.items = []; load.cleared = true; }
  state.requests = [];
  renderRequestRows();
  if (state.selected != null) {
    state.selected = null;
    state.detailToken++;
    renderDetailMessage(message);
  }
}

function matchesFilter(r) {
  const { provider, status, text } = state.filter;
  if (provider && r.emulatorID !== provider) return false;
  if (status && statusClass(r.status) !== status) return false;
  if (!text) return true;
  return [r.method, r.path, r.query, r.emulatorID, r.status]
    .filter((v) => v != null).join(' ').toLowerCase().includes(text);
}

function requestRow(r) {
  const tr = el('tr', {
    'data-sequence': r.sequence,
    'data-emulator': r.emulatorID,
    'data-status': r.status ?? '',
    class: r.sequence === state.selected ? 'selected' : '',
    tabindex: 0,
  },
  el('td', { class: 'col-time mono' }, clock(r.receivedAt)),
  el('td', { class: 'col-provider' }, r.emulatorID),
  el('td', { class: 'col-method mono' }, r.method),
  el('td', { class: 'col-path mono' }, fullPath(r)),
  el('td', { class: 'col-status' }, statusBadge(r.status)),
  el('td', { class: 'col-ms num mono' }, millis(r.durationMs)),
  el('td', { class: 'col-fault' }, r.fault ? el('span', { class: 'badge fault', title: r.fault }, r.fault) : null));
  state.rows.set(r.sequence, tr);
  return tr;
}

/** Rebuilds the whole table, newest first (after a fetch, a filter change or a clear). */
function renderRequestRows() {
  state.rows.clear();
  const fragment = document.createDocumentFragment();
  for (let i = state.requests.length - 1; i >= 0; i--) {
    const r = state.requests[i];
    if (matchesFilter(r)) fragment.append(requestRow(r));
  }
  $('request-rows').replaceChildren(fragment);
  updateCount();
}

function updateCount() {
  const shown = state.rows.size;
  const total = state.requests.length;
  $('request-count').textContent = `${shown} of ${total} requests`;
  const empty = $('requests-empty');
  empty.hidden = shown > 0;
  empty.textContent = total === 0
    ? "No requests yet. Point your app at an emulator's base URL."
    : 'No requests match the filters.';
}

function wireRequests() {
  const readFilter = () => {
    state.filter = {
      provider: $('filter-provider').value,
      status: $('filter-status').value,
      text: $('filter-text').value.trim().toLowerCase(),
    };
    renderRequestRows();
  };
  $('filter-provider').addEventListener('change', readFilter);
  $('filter-status').addEventListener('change', readFilter);
  $('filter-text').addEventListener('input', readFilter);

  $('clear-requests').addEventListener('click', (event) => busy(event.currentTarget, async () => {
    try {
      await api('requests', { method: 'DELETE' });
      clearJournal('The journal was cleared.');
    } catch (err) {
      notice(`Could not clear the journal: ${err.message}`);
    }
  }));

  const rows = $('request-rows');
  rows.addEventListener('click', (event) => {
    const tr = event.target.closest('tr[data-sequence]');
    if (tr) select(Number(tr.dataset.sequence));
  });
  // Keyboard: Enter/Space selects the focused row, arrows move to the next/previous one.
  rows.addEventListener('keydown', (event) => {
    const tr = event.target.closest('tr[data-sequence]');
    if (!tr) return;
    const next = { ArrowDown: tr.nextElementSibling, ArrowUp: tr.previousElementSibling }[event.key];
    if (next) { next.focus(); select(Number(next.dataset.sequence)); event.preventDefault(); }
    if (event.key === 'Enter' || event.key === ' ') { select(Number(tr.dataset.sequence)); event.preventDefault(); }
  });
}

// ---------------------------------------------------------------------------------------------
// Request detail

function select(sequence) {
  if (sequence === state.selected) return;
  state.rows.get(state.selected)?.classList.remove('selected');
  state.selected = sequence;
  state.revealed = false;   // another request: secrets are hidden again
  state.secrets = null;
  state.rows.get(sequence)?.classList.add('selected');
  loadDetail();
}

async function loadDetail() {
  const sequence = state.selected;
  const reveal = state.revealed;
  const token = ++state.detailToken;
  const pane = $('request-detail');
  pane.setAttribute('aria-busy', 'true');
  try {
    const detail = await api(`requests/${encodeURIComponent(sequence)}${reveal ? '?reveal=1' : ''}`);
    if (token !== state.detailToken) return;
    if (!reveal) state.secrets = secretNames(detail);
    renderDetail(detail, reveal);
  } catch (err) {
    if (token !== state.detailToken) return;
    renderDetailMessage(err.status === 404
      ? 'This request is no longer in the journal.'
      : `Could not load the request: ${err.message}`);
  } finally {
    if (token === state.detailToken) pane.removeAttribute('aria-busy');
  }
}

/** Which header and query names the server redacted, to highlight them once revealed. */
function secretNames(detail) {
  const names = (items) => new Set((items ?? []).filter((i) => i.redacted).map((i) => i.name.toLowerCase()));
  return { headers: names(detail.headers), query: names(detail.queryItems), body: Boolean(detail.body?.redacted) };
}

function renderDetailMessage(text) {
  const pane = $('request-detail');
  pane.dataset.revealed = 'false';
  pane.replaceChildren(el('p', { class: 'empty' }, text));
}

function renderDetail(d, revealed) {
  const pane = $('request-detail');
  const secrets = revealed ? state.secrets : null;
  pane.dataset.revealed = String(revealed);
  pane.replaceChildren(
    el('div', { class: 'detail-head' },
      el('span', { class: 'method mono' }, d.method),
      el('span', { class: 'path mono' }, fullPath(d))),
    el('dl', { class: 'facts' },
      fact('Provider', d.emulatorID),
      fact('Status', d.status == null ? el('span', { class: 'status snone' }, '— no response') : statusBadge(d.status, true)),
      fact('Duration', d.durationMs == null ? '—' : `${millis(d.durationMs)} ms`),
      fact('Received', dateTime(d.receivedAt)),
      fact('Sequence', `#${d.sequence}`),
      d.fault ? fact('Fault', el('span', { class: 'badge fault' }, d.fault)) : null),
    secretsBar(d, revealed),
    detailSection('Headers', kvTable(d.headers, secrets?.headers)),
    detailSection('Query', kvTable(d.queryItems, secrets?.query)),
    detailSection('Body', bodyView(d.body, Boolean(secrets?.body))));
}

const fact = (label, value) => [el('dt', {}, label), el('dd', {}, value)];
const detailSection = (title, content) => el('section', {}, el('h3', {}, title), content);

function secretsBar(d, revealed) {
  const count = d.redactedCount ?? 0;
  const label = revealed
    ? el('span', { class: 'badge revealed', id: 'revealed-marker' }, 'revealed')
    : el('span', { class: 'muted' }, count > 0 ? `${count} secret value${count === 1 ? '' : 's'} redacted` : 'No secrets redacted');
  const button = el('button', { id: 'reveal-secrets', type: 'button', 'aria-pressed': String(revealed) },
    revealed ? 'Hide secrets' : 'Reveal secrets');
  button.addEventListener('click', () => {
    state.revealed = !state.revealed;
    button.disabled = true;
    loadDetail();
  });
  return el('div', { class: 'secrets' }, label, button);
}

/** Name/value pairs as a table; `<redacted>` values come from the server as they are shown. */
function kvTable(items, revealedNames) {
  if (!items?.length) return el('p', { class: 'muted' }, 'none');
  return el('table', { class: 'kv' }, el('tbody', {}, items.map((item) => {
    const wasSecret = revealedNames?.has(item.name.toLowerCase());
    const cls = item.redacted ? 'redacted' : wasSecret ? 'secret' : null;
    return el('tr', {}, el('td', {}, item.name), el('td', { class: cls }, item.value));
  })));
}

function bodyView(body, wasSecret) {
  if (!body || (!body.text && !body.bytes)) return el('p', { class: 'muted' }, 'No body');
  const meta = [body.contentType ?? 'no content type', `${body.bytes ?? 0} bytes`];
  if (body.isJSON) meta.push('JSON');
  if (body.redacted) meta.push('secrets redacted');
  return [
    el('div', { class: 'body-meta' }, meta.join(' · ')),
    el('pre', { class: wasSecret ? 'secret' : null }, prettyBody(body)),
  ];
}

/** The server pretty-prints JSON already; re-indent only when it did not. */
function prettyBody(body) {
  const text = body.text ?? '';
  if (!body.isJSON || text.includes('\n')) return text;
  try { return JSON.stringify(JSON.parse(text), null, 2); } catch { return text; }
}

// ---------------------------------------------------------------------------------------------
// Faults

async function loadFaults() {
  try {
    setFaults(await api('faults'));
  } catch (err) {
    notice(`Could not load the fault rules: ${err.message}`);
  }
}

function setFaults(rules) {
  state.faults = [...(rules ?? [])].sort((a, b) => a.id - b.id);
  renderFaults();
}

function upsertFault(rule) {
  setFaults([...state.faults.filter((r) => r.id !== rule.id), rule]);
}

function renderFaults() {
  $('fault-rows').replaceChildren(...state.faults.map(faultRow));
  $('faults-empty').hidden = state.faults.length > 0;
  $('remove-all-faults').disabled = state.faults.length === 0;
}

const anyCell = (value, cls = '') =>
  el('td', { class: value == null ? `any ${cls}` : cls }, value ?? 'any');

function faultRow(rule) {
  const remove = el('button', { type: 'button', class: 'small danger' }, 'Remove');
  remove.addEventListener('click', () => busy(remove, () => removeFault(rule.id)));
  return el('tr', { 'data-rule-id': rule.id, class: rule.active ? null : 'inactive' },
    anyCell(rule.emulatorID),
    anyCell(rule.method, 'mono'),
    anyCell(rule.path, 'mono path'),
    el('td', {}, describeFault(rule.fault)),
    el('td', {}, describeTrigger(rule.trigger)),
    el('td', { class: 'hits num' }, rule.hits ?? 0),
    el('td', { class: 'remaining num' }, rule.remaining ?? '—'),
    el('td', {}, el('span', { class: `badge ${rule.active ? 'armed' : 'used'}` }, rule.active ? 'armed' : 'used up')),
    el('td', {}, remove));
}

function describeFault(fault) {
  switch (fault?.kind) {
    case 'status': {
      const extras = [fault.body ? 'body' : null, ...Object.keys(fault.headers ?? {})].filter(Boolean);
      return `status ${fault.status}${extras.length ? ` + ${extras.join(', ')}` : ''}`;
    }
    case 'delay': return `delay ${fault.milliseconds} ms`;
    case 'malformedBody': return 'malformed body';
    case 'truncatedBody': return 'truncated body';
    case 'trickle': return `trickle a byte every ${fault.milliseconds} ms`;
    case 'dropConnection': return 'drop connection';
    case 'dropConnectionAfterHandling': return 'drop connection after handling';
    default: return fault?.kind ?? 'unknown';
  }
}

function describeTrigger(trigger) {
  switch (trigger?.kind) {
    case 'always': return 'always';
    case 'times': return `${trigger.count} time${trigger.count === 1 ? '' : 's'}`;
    case 'probability': return `${Number((trigger.value * 100).toFixed(1))}% of requests`;
    default: return trigger?.kind ?? 'unknown';
  }
}

async function removeFault(id) {
  try {
    await api(`faults/${encodeURIComponent(id)}`, { method: 'DELETE' });
    setFaults(state.faults.filter((r) => r.id !== id));
  } catch (err) {
    showMessage($('fault-error'), `Could not remove rule ${id}: ${err.message}`);
  }
}

/** Shows the parameter fields of the chosen fault kind and trigger; hidden ones are disabled so
 *  the browser's form validation ignores them. */
function syncFaultParams() {
  const form = $('fault-form');
  const chosen = [form.elements.kind.value, form.elements.trigger.value];
  for (const label of form.querySelectorAll('[data-param]')) {
    const shown = chosen.includes(label.dataset.param);
    label.hidden = !shown;
    for (const input of label.querySelectorAll('input, select')) input.disabled = !shown;
  }
}

/** The rule described by the form, in the API's shape. */
function readFaultForm() {
  const f = $('fault-form').elements;
  const fault = { kind: f.kind.value };
  if (fault.kind === 'status') {
    fault.status = Number(f.status.value);
    if (f.statusBody.value) fault.body = f.statusBody.value;
  }
  if (fault.kind === 'delay') fault.milliseconds = Number(f.delay.value);
  if (fault.kind === 'trickle') fault.milliseconds = Number(f.trickle.value);
  const trigger = { kind: f.trigger.value };
  if (trigger.kind === 'times') trigger.count = Number(f.count.value);
  if (trigger.kind === 'probability') trigger.value = Number(f.probability.value);
  return {
    emulatorID: f.emulator.value || null,
    method: f.method.value || null,
    path: f.path.value.trim() || null,
    fault,
    trigger,
  };
}

function wireFaults() {
  const form = $('fault-form');
  form.elements.kind.addEventListener('change', syncFaultParams);
  form.elements.trigger.addEventListener('change', syncFaultParams);
  syncFaultParams();

  form.addEventListener('submit', async (event) => {
    event.preventDefault();   // the API call replaces form submission (the CSP forbids it anyway)
    const button = form.querySelector('button[type="submit"]');
    showMessage($('fault-error'), '');
    $('fault-message').textContent = '';
    await busy(button, async () => {
      try {
        const rule = await api('faults', { method: 'POST', body: readFaultForm() });
        if (rule?.id != null) upsertFault(rule);
        $('fault-message').textContent = rule?.id != null ? `Added rule #${rule.id}.` : 'Rule added.';
      } catch (err) {
        showMessage($('fault-error'), err.message);
      }
    });
  });

  $('remove-all-faults').addEventListener('click', (event) => busy(event.currentTarget, async () => {
    try {
      await api('faults', { method: 'DELETE' });
      setFaults([]);
    } catch (err) {
      showMessage($('fault-error'), `Could not remove the rules: ${err.message}`);
    }
  }));
  renderFaults();
}

// ---------------------------------------------------------------------------------------------
// State: one card per inspectable emulator

const inspectable = () => state.emulators.filter((e) => e.inspectable);
const stateCard = (id) => $('state-cards').querySelector(`article[data-emulator="${CSS.escape(id)}"]`);

function renderStateCards() {
  const emulators = inspectable();
  const container = $('state-cards');
  if (!emulators.length) {
    container.replaceChildren(el('p', { class: 'empty' }, 'No emulator exposes its state.'));
    return;
  }
  container.replaceChildren(...emulators.map((emulator) => {
    const refresh = el('button', { type: 'button', class: 'small' }, 'Refresh');
    const reset = el('button', { type: 'button', class: 'small danger' }, 'Reset');
    refresh.addEventListener('click', () => busy(refresh, () => loadState(emulator.id)));
    reset.addEventListener('click', () => busy(reset, () => resetState(emulator.id)));
    return el('article', { class: 'card', 'data-emulator': emulator.id },
      el('div', { class: 'card-head' },
        el('h2', {}, emulator.id), refresh, reset,
        el('span', { class: 'base-url mono' }, emulator.baseURL ?? '')),
      el('div', { class: 'card-body' }, el('p', { class: 'muted' }, 'Not loaded yet.')));
  }));
}

function loadAllState() {
  for (const emulator of inspectable()) loadState(emulator.id);
}

async function loadState(id) {
  const body = stateCard(id)?.querySelector('.card-body');
  if (!body) return;
  body.setAttribute('aria-busy', 'true');
  try {
    const snapshot = await api(`state/${encodeURIComponent(id)}`);
    const tables = snapshot?.tables ?? [];
    body.replaceChildren(...(tables.length ? tables.map(stateTable) : [el('p', { class: 'empty' }, 'nothing yet')]));
  } catch (err) {
    body.replaceChildren(el('p', { class: 'error' }, `Could not load the state: ${err.message}`));
  } finally {
    body.removeAttribute('aria-busy');
  }
}

function stateTable(table) {
  const rows = table.rows ?? [];
  const heading = el('h3', {}, table.title, ' ', el('span', { class: 'muted' }, `(${rows.length})`));
  if (!rows.length) return el('section', { class: 'state-table' }, heading, el('p', { class: 'empty' }, 'nothing yet'));
  return el('section', { class: 'state-table' }, heading,
    el('div', { class: 'table-wrap' },
      el('table', {},
        el('thead', {}, el('tr', {}, (table.columns ?? []).map((c) => el('th', {}, c)))),
        el('tbody', {}, rows.map((row) => el('tr', {}, row.map((cell) => el('td', {}, cell ?? ''))))))));
}

async function resetState(id) {
  try {
    await api(`state/${encodeURIComponent(id)}/reset`, { method: 'POST' });
  } catch (err) {
    stateCard(id)?.querySelector('.card-body')
      ?.prepend(el('p', { class: 'error' }, `Could not reset: ${err.message}`));
    return;
  }
  await loadState(id);
}

// ---------------------------------------------------------------------------------------------
// Tokens

function setTokenLimit(seconds) {
  state.tokenLimit = seconds;
  $('token-current').textContent = seconds == null
    ? 'Current limit: none. Tokens keep the lifetime each emulator normally gives them.'
    : `Current limit: ${seconds} s. Tokens issued from now on expire after at most ${seconds} seconds, so you can watch your app refresh.`;
  const input = $('token-seconds');
  if (seconds != null && document.activeElement !== input) input.value = String(seconds);
}

async function loadTokens() {
  try {
    setTokenLimit((await api('tokens'))?.lifetimeLimitSeconds ?? null);
  } catch (err) {
    showMessage($('token-error'), `Could not load the token limit: ${err.message}`);
  }
}

async function putTokenLimit(seconds) {
  showMessage($('token-error'), '');
  try {
    const result = await api('tokens', { method: 'PUT', body: { lifetimeLimitSeconds: seconds } });
    setTokenLimit(result?.lifetimeLimitSeconds ?? null);
  } catch (err) {
    showMessage($('token-error'), err.message);
  }
}

function wireTokens() {
  const form = $('token-form');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = form.querySelector('button[type="submit"]');
    busy(button, () => putTokenLimit(Number($('token-seconds').value)));
  });
  const reset = $('token-reset');
  reset.addEventListener('click', () => busy(reset, async () => {
    await putTokenLimit(null);
    $('token-seconds').value = '';
  }));
}

// ---------------------------------------------------------------------------------------------
// Start

function start() {
  wireTabs();
  wireRequests();
  wireFaults();
  wireTokens();
  showTab(location.hash.slice(1));
  connect();
  loadOverview();
  loadRequests();
  loadFaults();
}

start();
