// The auth-projects product of the dashboard (end-user pools, docs/dashboard.md "Auth project pages"): one
// navigation entry, Projects; a project's sections and its users live under it
// (/dashboard/{slug}/auth/projects[/{projectId}[/{section} | /users/{userId}]]).
import { icons } from '../kit/icons.js';
import { authTexts } from './texts.js';

export default {
  id: 'auth',
  title: 'auth.product',
  texts: authTexts,
  styles: '/web/dashboard/auth/auth.css',
  pages: [{ id: 'projects', title: 'auth.nav.projects', icon: icons.project, load: () => import('./projects.js') }],
};
