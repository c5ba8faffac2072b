import { commandFrom } from '../../cli/command-from.js'
import { marketplaceKeygenSpec } from '../../cli/specs/marketplace-keygen.js'

export default commandFrom(marketplaceKeygenSpec)
