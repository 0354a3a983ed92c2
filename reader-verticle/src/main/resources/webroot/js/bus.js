// The admin console's event bus: the pinned Vert.x bridge client over SockJS (both loaded by the page as classic
// scripts before this module), reconnecting on its own; requests answer or fail within a bounded time. Pages name
// operations (JOBS_LIST) and events (JOB_PROGRESS); their addresses come from the server's table, the same one the
// bridge's permissions are made from (GET /api/admin/console/addresses).
import { getJson } from './api.js';

const REQUEST_TIMEOUT_MS = 8000;

/** Names of the codes of docs/error-codes.md, so an error reads as the table does. */
const CODES = {
  4001: 'malformed message', 4002: 'unsupported version', 4003: 'not ready', 4004: 'not found',
  4005: 'unknown source', 4009: 'not allowed in this state', 5001: 'internal error', 5002: 'storage error',
};

/** A refused or failed request; `code` is the error-code number when the scraper sent one. */
export class BusError extends Error {
  constructor(message, code = null, type = null) {
    super(message);
    this.name = 'BusError';
    this.code = code;
    this.type = type;
  }
}

let addressTable = null;

/** The server's table of addresses, `{requests: {JOBS_LIST: address, ...}, events: {JOB_PROGRESS: address, ...}}`. */
function addresses() {
  if (!addressTable) {
    addressTable = getJson('/api/admin/console/addresses').catch((e) => {
      addressTable = null;
      throw new BusError(`The console's addresses could not be read: ${e.message}`);
    });
  }
  return addressTable;
}

/** Turns a bridge error frame into a readable BusError. */
function busError(err) {
  if (!err) return new BusError('The scraper did not answer.');
  if (err.failureType === 'NO_HANDLERS' || err.failureType === 'TIMEOUT') {
    return new BusError('The scraper is unreachable (not running, parked or not yet joined).', null, err.failureType);
  }
  const name = CODES[err.failureCode];
  const text = err.message || err.body || 'refused';
  return new BusError(name ? `${name[0].toUpperCase()}${name.slice(1)}: ${text}` : String(text), err.failureCode || null,
    err.failureType || null);
}

/**
 * Opens the bridge. `onState(open)` is told whenever the connection opens or drops; `subscriptions` maps event names
 * (JOB_PROGRESS, CIRCUIT_STATE, INCIDENT_RECORDED, ...) to handlers and is re-registered after every reconnect.
 */
export function openBus({ onState = () => {}, subscriptions = {} } = {}) {
  if (typeof window.EventBus !== 'function') {
    throw new Error('The event-bus client did not load (js/vendor/vertx-eventbus.js).');
  }
  const bus = new window.EventBus('/eventbus', { vertxbus_reconnect_delay_max: 5000,
    // The transports the server offers; SockJS would otherwise try its iframe ones, which are off.
    transports: ['websocket', 'xhr-streaming', 'xhr-polling'] });
  bus.enableReconnect(true);
  bus.onopen = async () => {
    try {
      const { events } = await addresses();
      for (const [name, handler] of Object.entries(subscriptions)) {
        if (!events[name]) throw new Error(`No event named ${name}.`);
        bus.registerHandler(events[name], {}, (err, message) => {
          if (!err && message) handler(message.body);
        });
      }
    } catch (e) {
      console.error('Live updates are off:', e.message);
    }
    onState(true);
  };
  bus.onclose = () => onState(false);
  bus.onerror = () => {};

  /** Sends the operation's request (JOBS_LIST, ...); resolves with the reply body, rejects with BusError. */
  async function request(operation, body) {
    const address = (await addresses()).requests[operation];
    if (!address) throw new BusError(`No operation named ${operation}.`);
    return new Promise((resolve, reject) => {
      if (bus.state !== window.EventBus.OPEN) {
        reject(new BusError('Not connected to the server yet; try again in a moment.'));
        return;
      }
      const timer = setTimeout(() => reject(new BusError('No answer within 8 s.')), REQUEST_TIMEOUT_MS);
      bus.send(address, { v: 1, ...body }, {}, (err, reply) => {
        clearTimeout(timer);
        if (err) reject(busError(err));
        else resolve(reply.body);
      });
    });
  }
  return { request, close: () => bus.close() };
}
