import type { Action } from '../errors.js'

/**
 * The commands whose plain invocation runs without oclif (cli/fast.ts), by id, with their actions,
 * each loaded only when run. Their specs are `<id, ':' as '-'>.ts` here; the fast path loads none.
 */
export const FAST_ACTIONS: Record<string, () => Promise<Action<never>>> = {
  'load-dirs': async () => (await import('../actions/load-dirs.js')).loadDirsAction,
  run: async () => (await import('../actions/run.js')).runAction,
  validate: async () => (await import('../actions/lint.js')).validateAction,
  lint: async () => (await import('../actions/lint.js')).lintAction,
  'audit:tail': async () => (await import('../actions/audit-tail.js')).auditTailAction,
  test: async () => (await import('../actions/test.js')).testAction,
  eval: async () => (await import('../actions/eval.js')).evalAction,
  'marketplace:check': async () => (await import('../actions/marketplace.js')).marketplaceCheckAction,
  'marketplace:verify': async () => (await import('../actions/marketplace.js')).marketplaceVerifyAction,
  'marketplace:keygen': async () => (await import('../actions/marketplace.js')).marketplaceKeygenAction,
  'marketplace:sign': async () => (await import('../actions/marketplace.js')).marketplaceSignAction,
  'marketplace:pack': async () => (await import('../actions/marketplace.js')).marketplacePackAction,
  mcp: async () => (await import('../actions/mcp.js')).mcpAction,
  version: async () => (await import('../actions/version.js')).versionAction,
  lsp: async () => (await import('../actions/lsp.js')).lspAction,
}
