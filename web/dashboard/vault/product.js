// The env vault in the dashboard (docs/env-vault.md): projects with their environments, env tokens (shown
// once, revocable), versions with diff and rollback. Addresses: /dashboard/{slug}/vault/projects and
// /dashboard/{slug}/vault/projects/{projectId}[/{environment}].
import { icons } from '../kit/icons.js';
import { vaultTexts } from './texts.js';

export default {
  id: 'vault',
  title: 'vault.product',
  texts: vaultTexts,
  styles: '/web/dashboard/vault/vault.css',
  pages: [{ id: 'projects', title: 'vault.nav.projects', icon: icons.key, load: () => import('./projects.js') }],
};
