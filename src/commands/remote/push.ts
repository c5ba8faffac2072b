import { commandFrom } from '../../cli/command-from.js'
import { remotePushSpec } from '../../cli/specs/remote-push.js'

export default commandFrom(remotePushSpec)
