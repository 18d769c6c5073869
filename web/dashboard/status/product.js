// The status product of the dashboard (docs/status-dashboard.md): status pages with their components,
// checks and results, incidents, maintenance windows, restart targets, subscribers and the SLA report, over
// the status dashboard API (docs/status-api.md). One navigation entry; everything else is beneath a page:
// /dashboard/{slug}/status/pages[/{pageId}[/{tab}] | /{pageId}/checks/{componentId}/{checkId|new}].
// {status_url}/d[/...] redirects here (edge/pages/dashboard_routes.cpp).
import { icons } from '../kit/icons.js';
import { statusTexts } from './texts.js';

export default {
  id: 'status',
  title: 'status.product',
  texts: statusTexts,
  styles: '/web/dashboard/status/status.css',
  pages: [{ id: 'pages', title: 'status.nav.pages', icon: icons.globe, load: () => import('./pages.js') }],
};
