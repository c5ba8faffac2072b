import { toText, trimSpace } from '../../go/gostring.js'
import { envElements } from '../rule-kit/env.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

/**
 * Variables that change what code a program runs, whatever the program: passed through
 * env_allow, whoever sets the manager's environment runs code inside the skill (and its
 * children). Each with what it does. PATH is left out: nearly every entry needs it, and it only
 * picks among programs by name.
 */
export const DANGEROUS_ENV: ReadonlyMap<string, string> = new Map([
  // glibc's dynamic loader (ld.so), read by every dynamically linked program.
  ['LD_PRELOAD', 'the dynamic loader loads the libraries it names into every program'],
  ['LD_LIBRARY_PATH', 'the dynamic loader looks for shared libraries there first'],
  ['LD_AUDIT', 'the dynamic loader loads the auditing libraries it names into every program'],
  ['GCONV_PATH', 'glibc’s iconv loads its conversion modules from there'],
  // Shells.
  ['BASH_ENV', 'bash runs the file it names before every non-interactive script'],
  ['ENV', 'sh and bash in POSIX mode run the file it names at start'],
  ['SHELLOPTS', 'bash turns on the options it lists (xtrace, …) in every script'],
  // Python.
  ['PYTHONPATH', 'Python imports modules from there before its own'],
  ['PYTHONHOME', 'Python takes its standard library from there'],
  ['PYTHONSTARTUP', 'Python runs the file it names at an interactive start'],
  ['PYTHONUSERBASE', 'Python runs the .pth files of that user site-packages dir'],
  // Perl.
  ['PERL5LIB', 'Perl loads modules from there before its own'],
  ['PERLLIB', 'Perl loads modules from there before its own'],
  ['PERL5OPT', 'Perl takes command-line switches from it (-M loads a module)'],
  // Ruby.
  ['RUBYLIB', 'Ruby loads libraries from there before its own'],
  ['RUBYOPT', 'Ruby takes command-line options from it (-r loads a library)'],
  // Node.js.
  ['NODE_OPTIONS', 'Node takes options from it (--require and --import load code)'],
  ['NODE_PATH', 'Node resolves modules from there'],
  // The JVM.
  ['JAVA_TOOL_OPTIONS', 'the JVM takes options from it (-javaagent loads code)'],
  ['_JAVA_OPTIONS', 'the JVM takes options from it (-javaagent loads code)'],
  ['JDK_JAVA_OPTIONS', 'the java launcher takes options from it (-javaagent loads code)'],
  // Lua.
  ['LUA_INIT', 'Lua runs the code it holds (or the file it names) at start'],
  ['LUA_PATH', 'Lua loads modules from there'],
  ['LUA_CPATH', 'Lua loads C modules from there'],
])

const rule: ManifestRule = {
  id: 'env/dangerous-name',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: `An env_allow name is a variable that changes what code any program runs: the dynamic loader's (\`LD_PRELOAD\`, \`LD_LIBRARY_PATH\`, \`LD_AUDIT\`, \`GCONV_PATH\`), shells' (\`BASH_ENV\`, \`ENV\`, \`SHELLOPTS\`), interpreters' module paths and options (\`PYTHONPATH\`, \`PYTHONHOME\`, \`PYTHONSTARTUP\`, \`PYTHONUSERBASE\`, \`PERL5LIB\`, \`PERLLIB\`, \`PERL5OPT\`, \`RUBYLIB\`, \`RUBYOPT\`, \`NODE_OPTIONS\`, \`NODE_PATH\`, \`JAVA_TOOL_OPTIONS\`, \`_JAVA_OPTIONS\`, \`JDK_JAVA_OPTIONS\`, \`LUA_INIT\`, \`LUA_PATH\`, \`LUA_CPATH\`). Whoever sets the manager's environment then runs code inside the skill.`,
  examples: {
    bad: [{ files: pack({ env_allow: ['PATH', 'LD_PRELOAD'] }) }],
    good: [{ files: pack({ env_allow: ['PATH', 'HOME'] }) }],
  },
  check(ctx, report) {
    for (const e of envElements(ctx)) {
      const name = toText(trimSpace(e.value))
      const why = DANGEROUS_ENV.get(name)
      if (why === undefined) continue
      report({
        at: e.at,
        message: `${name} changes what code the entry runs: ${why}; whoever sets the manager's environment runs code in the skill`,
        hint: 'pass the value the skill needs in its args or set it in the entry, rather than allowing the variable',
      })
    }
  },
}
export default rule
