import { commandFrom } from '../../cli/command-from.js'
import { auditTailSpec } from '../../cli/specs/audit-tail.js'

export default commandFrom(auditTailSpec)
