// Permission checks through @platform/core (core/permission.h): owners and admins pass everything, members
// are checked per permission, scoped permissions grant only on their target.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { loadPlatformCore } from '../../bindings/index.js';

let core;
before(async () => {
  core = await loadPlatformCore();
});

const allowed = { ok: true, value: true };
const denied = { ok: true, value: false };

describe('allows', () => {
  test('owners and admins bypass every check', () => {
    assert.deepEqual(core.allows('owner', [], 'domains.delete'), allowed);
    assert.deepEqual(core.allows('admin', [], 'restaurant.manage', 'br_1'), allowed);
  });

  test('a member needs the permission itself or <resource>.manage', () => {
    assert.deepEqual(core.allows('member', ['domains.view'], 'domains.view'), allowed);
    assert.deepEqual(core.allows('member', ['domains.view'], 'domains.edit'), denied);
    assert.deepEqual(core.allows('member', ['domains.manage'], 'domains.delete'), allowed);
    assert.deepEqual(core.allows('member', ['domains.manage'], 'webhooks.manage'), denied);
    assert.deepEqual(core.allows('member', [], 'logs.view'), denied);
  });

  test('a branch-scoped member writes to that branch only', () => {
    const granted = ['restaurant.branch:br_1'];
    assert.deepEqual(core.allows('member', granted, 'restaurant.write', 'br_1'), allowed);
    assert.deepEqual(core.allows('member', granted, 'restaurant.write', 'br_2'), denied);
    assert.deepEqual(core.allows('member', granted, 'restaurant.write'), denied);
  });

  test('a domain-scoped action grants only that action on that domain', () => {
    const granted = ['domains.domain:dom_1:edit'];
    assert.deepEqual(core.allows('member', granted, 'domains.edit', 'dom_1'), allowed);
    assert.deepEqual(core.allows('member', granted, 'domains.delete', 'dom_1'), denied);
    assert.deepEqual(core.allows('member', granted, 'domains.edit', 'dom_2'), denied);
  });

  test('a mailbox-scoped member reads only that mailbox', () => {
    const granted = ['inbox.mailbox:ops@example.com'];
    assert.deepEqual(core.allows('member', granted, 'inbox.view', 'ops@example.com'), allowed);
    assert.deepEqual(core.allows('member', granted, 'inbox.view', 'ceo@example.com'), denied);
  });

  test('malformed or unknown granted entries grant nothing', () => {
    assert.deepEqual(core.allows('member', ['domains.veiw', 'domains.domain:'], 'domains.view'), denied);
  });

  test('refuses an unknown role with invalid_role', () => {
    assert.deepEqual(core.allows('Owner', [], 'domains.view'), {
      ok: false,
      code: 'invalid_role',
      message: "'Owner' is not a role (owner, admin or member)",
    });
  });

  test('throws a TypeError when granted is not an array of strings', () => {
    assert.throws(() => core.allows('member', 'domains.view', 'domains.view'), {
      name: 'TypeError',
      message: 'granted must be an array of strings',
    });
    assert.throws(() => core.allows('member', [1], 'domains.view'), TypeError);
    assert.throws(() => core.allows('member', [], 'domains.view', null), TypeError);
  });
});

describe('validatePermission', () => {
  test('accepts known names and well-formed scoped forms', () => {
    for (const permission of ['domains.view', 'restaurant.branch:br_1', 'domains.domain:d1:view', 'inbox.mailbox:a@b.example']) {
      assert.deepEqual(core.validatePermission(permission), { ok: true, value: null }, permission);
    }
  });

  test('refuses anything else with invalid_permission', () => {
    const result = core.validatePermission('domains.fly');
    assert.equal(result.ok, false);
    assert.equal(result.code, 'invalid_permission');
    assert.match(result.message, /domains\.fly/);
    assert.equal(core.validatePermission('domains.domain:d1:fly').code, 'invalid_permission');
  });
});
