// The company product of the dashboard (docs/dashboard.md "Company pages"): what belongs to the company
// itself rather than to one product. For now its access tokens (/dashboard/{slug}/company/tokens).
import { icons } from '../kit/icons.js';
import { companyTexts } from './texts.js';

export default {
  id: 'company',
  title: 'company.product',
  texts: companyTexts,
  styles: '/web/dashboard/company/company.css',
  pages: [{ id: 'tokens', title: 'company.nav.tokens', icon: icons.key, load: () => import('./tokens.js') }],
};
