import { commandFrom } from '../../cli/command-from.js'
import { marketplacePackSpec } from '../../cli/specs/marketplace-pack.js'

export default commandFrom(marketplacePackSpec)
