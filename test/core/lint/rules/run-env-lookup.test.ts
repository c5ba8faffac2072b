import rule from '../../../../src/core/lint/rules/run-env-lookup.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack({ env_allow: [] }),
        'skills/a/run.sh': { exec: '#!/usr/bin/env no-such-program-xyz\n' },
      },
      findings: [
        {
          message:
            'PATH is not in env_allow, so the manager starts the entry without PATH and env searches /bin:/usr/bin (glibc\'s default), where "no-such-program-xyz" is not found on this machine: every run would exit 127. Add "PATH" to env_allow or use the interpreter\'s absolute path',
          line: 1,
          column: 83,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: { 'skills/a/skill.json': pack(), 'skills/a/run.sh': { exec: '#!/usr/bin/env sh -e\n' } },
      findings: [
        {
          message:
            'the #! line passes "sh -e" to env as ONE argument (Linux does not split it), so env looks for a program named "sh -e"; use #!/usr/bin/env -S sh -e, or the interpreter\'s absolute path',
          line: 1,
          column: 83,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
