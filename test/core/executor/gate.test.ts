import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { authorize, llmCallable, ROLES } from '../../../src/core/executor/gate.js'

// The manager's skill service `authorize` (internal/manager/biz/skill/service.go), as answered
// with HTTP 403 by POST /api/v1/skills/{key}/execute.
const VIEWER = 'forbidden: viewer role cannot run mutating skills'
const NOT_ADMIN_OR_USER = 'forbidden: mutating skills require admin or user role'
const DANGEROUS = 'forbidden: dangerous skills require SOP signature (not implemented)'

describe('authorize: every class × role', () => {
  const table: Record<string, Record<string, string | null>> = {
    safe: { admin: null, user: null, viewer: null, system: null, '': null, Admin: null, root: null },
    mutating: {
      admin: null,
      user: null,
      viewer: VIEWER,
      system: NOT_ADMIN_OR_USER,
      '': NOT_ADMIN_OR_USER,
      Admin: NOT_ADMIN_OR_USER,
      USER: NOT_ADMIN_OR_USER,
      ' admin': NOT_ADMIN_OR_USER,
      Viewer: NOT_ADMIN_OR_USER,
    },
    dangerous: {
      admin: DANGEROUS,
      user: DANGEROUS,
      viewer: DANGEROUS,
      system: DANGEROUS,
      '': DANGEROUS,
    },
  }
  for (const [cls, roles] of Object.entries(table)) {
    for (const [role, want] of Object.entries(roles)) {
      test(`${cls} × ${JSON.stringify(role)}`, () => {
        assert.equal(authorize(cls as 'safe' | 'mutating' | 'dangerous', role), want)
      })
    }
  }
  test('the --role choices are the manager’s roles plus the LLM bridge’s system', () => {
    assert.deepEqual([...ROLES], ['admin', 'user', 'viewer', 'system'])
  })
})

describe('llmCallable', () => {
  test('only safe skills reach the LLM', () => {
    assert.equal(llmCallable('safe'), true)
    assert.equal(llmCallable('mutating'), false)
    assert.equal(llmCallable('dangerous'), false)
  })
})
