import { commandFrom } from '../../cli/command-from.js'
import { marketplaceCheckSpec } from '../../cli/specs/marketplace-check.js'

export default commandFrom(marketplaceCheckSpec)
