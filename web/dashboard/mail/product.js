// The mail product of the dashboard: its texts and pages (kit/shell.js loads a page's module when it is
// first opened).
import { icons } from '../kit/icons.js';
import { mailTexts } from './texts.js';

export default {
  id: 'mail',
  title: 'mail.product',
  texts: mailTexts,
  styles: '/web/dashboard/mail/mail.css',
  pages: [
    { id: 'domains', title: 'mail.nav.domains', icon: icons.globe, load: () => import('./domains.js') },
    { id: 'templates', title: 'mail.nav.templates', icon: icons.template, load: () => import('./templates.js') },
    { id: 'logs', title: 'mail.nav.logs', icon: icons.logs, load: () => import('./logs.js') },
    { id: 'suppressions', title: 'mail.nav.suppressions', icon: icons.block, load: () => import('./suppressions.js') },
  ],
};
