import { commandFrom } from '../../cli/command-from.js'
import { marketplaceSignSpec } from '../../cli/specs/marketplace-sign.js'

export default commandFrom(marketplaceSignSpec)
