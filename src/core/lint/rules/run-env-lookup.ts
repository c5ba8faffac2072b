import { envLookupProblem } from '../entry.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'run/env-lookup',
  severity: 'warn',
  category: 'manager',
  kind: 'manifest',
  docs: '`#!/usr/bin/env CMD` that cannot work under the manager: CMD not on glibc’s default path when PATH is not in env_allow, or `env` given several words as one.',
  check(ctx, report) {
    const skill = ctx.skill
    if (!skill || ctx.entry() !== null) return
    const problem = envLookupProblem(skill.entry, skill.envAllow)
    if (problem) report({ at: ctx.keyAt('entry'), message: problem })
  },
}
export default rule
