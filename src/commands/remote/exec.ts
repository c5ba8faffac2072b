import { commandFrom } from '../../cli/command-from.js'
import { remoteExecSpec } from '../../cli/specs/remote-exec.js'

export default commandFrom(remoteExecSpec)
