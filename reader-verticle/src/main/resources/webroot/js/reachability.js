// Whether the scraper answers, as the reader sees it: GET /api/admin/status asks mc.scraper.ping (1.5 s). The health
// page and the scraper console both use this, so the console's badge never says "live" while health says otherwise.
import { getJson } from './api.js';

/** How often the status is asked again, ms. */
export const STATUS_MS = 5000;

/** Whether a GET /api/admin/status answer says the scraper answers. */
export function scraperReachable(status) {
  return Boolean(status && status.scraper && status.scraper.status === 'reachable');
}

/** Asks for the status now and every STATUS_MS; `onStatus(status)` with each answer, `onError(error)` on a failure. */
export function watchStatus(onStatus, onError) {
  const check = async () => {
    let status;
    try {
      status = await getJson('/api/admin/status');
    } catch (e) {
      onError(e);
      return;
    }
    onStatus(status);
  };
  setInterval(check, STATUS_MS);
  return check();
}
