// The platform's permissions as the dashboard offers and shows them: the plain names grouped by product, and
// how a granted string reads. The one list of names here is kept in step with kKnownPermissions in
// core/permission.cpp (tests/browser/dashboard_tokens.test.mjs compares the two); the grammar of the scoped
// forms is core/permission.h's. No DOM here, so node can import it.

// Each group's names in the order the picker lists them; every name has a text `company.perm.<name>`, every
// group `company.group.<id>`.
export const PERMISSION_GROUPS = [
  { id: 'mail', permissions: ['send.execute', 'templates.manage', 'logs.view', 'suppressions.manage', 'webhooks.manage', 'audience.manage', 'smtp.manage'] },
  { id: 'domains', permissions: ['domains.view', 'domains.create', 'domains.edit', 'domains.delete', 'domains.manage'] },
  { id: 'inbox', permissions: ['inbox.view', 'mailboxes.manage'] },
  { id: 'restaurant', permissions: ['restaurant.view', 'restaurant.manage'] },
  { id: 'storage', permissions: ['storage.view', 'buckets.create', 'buckets.edit', 'buckets.delete', 'media.upload', 'media.delete', 'media.reorder'] },
  { id: 'auth', permissions: ['auth-projects.manage', 'oauth-clients.manage'] },
  { id: 'status', permissions: ['status.view', 'status.manage'] },
  { id: 'vault', permissions: ['env-vault.view', 'env-vault.manage'] },
  { id: 'company', permissions: ['api-keys.manage', 'members.manage'] },
];

export const KNOWN_PERMISSIONS = PERMISSION_GROUPS.flatMap((g) => g.permissions);

// The scoped form the branch select adds: read and write on that one branch (what a paired till holds).
export const BRANCH_SCOPE = 'restaurant.branch:';
const DOMAIN_SCOPE = 'domains.domain:';
const MAILBOX_SCOPE = 'inbox.mailbox:';
const DOMAIN_ACTIONS = ['view', 'create', 'edit', 'delete'];

// Whether granting `granted` already grants the plain name `other`: `<resource>.manage` covers every
// `<resource>.<action>` (core/permission.cpp plain_grants). The picker marks such names as included.
export function covers(granted, other) {
  if (granted === other || !granted.endsWith('.manage')) return false;
  const resource = granted.slice(0, -'.manage'.length);
  return other.startsWith(`${resource}.`);
}

// A granted string taken apart: {kind: 'plain', name} | {kind: 'branch', id} | {kind: 'domain', id, action}
// (action null: every action on it) | {kind: 'mailbox', email} | {kind: 'unknown', text}. Unknown strings
// grant nothing on the server; they are shown as they are.
export function parsePermission(text) {
  if (KNOWN_PERMISSIONS.includes(text)) return { kind: 'plain', name: text };
  if (text.startsWith(BRANCH_SCOPE) && text.length > BRANCH_SCOPE.length) return { kind: 'branch', id: text.slice(BRANCH_SCOPE.length) };
  if (text.startsWith(DOMAIN_SCOPE)) {
    const [id, action, ...extra] = text.slice(DOMAIN_SCOPE.length).split(':');
    if (id && !extra.length && (action === undefined || DOMAIN_ACTIONS.includes(action))) return { kind: 'domain', id, action: action ?? null };
  }
  if (text.startsWith(MAILBOX_SCOPE) && text.includes('@')) return { kind: 'mailbox', email: text.slice(MAILBOX_SCOPE.length) };
  return { kind: 'unknown', text };
}

// The words for a granted string in the page's language (`t`); `branchName(id)` answers a branch's name or
// null (the id is shown then).
export function permissionLabel(t, text, branchName = () => null) {
  const p = parsePermission(text);
  switch (p.kind) {
    case 'plain':
      return t(`company.perm.${p.name}`);
    case 'branch':
      return t('company.perm.branch', { name: branchName(p.id) ?? p.id });
    case 'domain':
      return t(p.action ? `company.perm.domain.${p.action}` : 'company.perm.domain', { id: p.id });
    case 'mailbox':
      return t('company.perm.mailbox', { email: p.email });
    default:
      return text;
  }
}
