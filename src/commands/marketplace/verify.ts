import { commandFrom } from '../../cli/command-from.js'
import { marketplaceVerifySpec } from '../../cli/specs/marketplace-verify.js'

export default commandFrom(marketplaceVerifySpec)
