import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { builtinTexts, toolSimilarity } from '../../../../src/core/agent/similarity.js'
import rule from '../../../../src/core/lint/rules/practice-confusable-tool.js'
import { ECHO, type Node } from '../../../helpers/tree.js'
import { ruleTester, runRule } from '../rule-tester.js'
import { CLEAN_PACK, colOf, pack } from './fixtures.js'

const TAIL = { name: 'tail_log', description: 'Return the last N lines of a log file on the host.' }
const A = { name: 'nginx_errors', description: 'Return the last error lines of the nginx error log.' }
const B = { name: 'nginx_error_log', description: 'Tail the nginx error log and return the newest entries.' }

/** Packs under skills/<name>, in walk order (the names sort as given). */
function packs(...fields: Record<string, unknown>[]) {
  const out: Record<string, Node> = {}
  for (const f of fields) {
    out[`skills/${f.name}/skill.json`] = pack(f)
    out[`skills/${f.name}/run.sh`] = ECHO
  }
  return out
}

const score = (a: { name: string; description: string }, b: { name: string; description: string }) =>
  toolSimilarity(a, b).toFixed(2)
const HOST_TAIL_FILE = {
  name: 'host_tail_file',
  description:
    '读取文件最后 N 行（类似 tail -n）\n\nReturns: {lines, total_lines_returned, file_size, truncated, error?}',
}

const QUERY_K8S_LOGS = builtinTexts().find((t) => t.name === 'query_k8s_logs') ?? HOST_TAIL_FILE

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'not offered to the LLM (mutating): in no request',
      files: packs({ ...TAIL, class: 'mutating' }),
    },
    {
      name: 'two packs far apart',
      files: packs(
        { name: 'cert_expiry', description: 'Check when the TLS certificate of a domain expires.' },
        { name: 'disk_free', description: 'Show the free disk space of each mounted filesystem.' },
      ),
    },
    {
      name: 'a pack that takes a builtin tool name is not compared with the tool it replaces',
      files: packs({
        name: 'get_host_processes',
        description: 'Return the top-N processes on the named edge host.',
      }),
    },
    {
      name: 'a second pack of the same name: not registered (manager/duplicate-name says so)',
      files: {
        ...packs(A),
        'skills/z/skill.json': pack(A),
        'skills/z/run.sh': ECHO,
      },
    },
  ],
  invalid: [
    {
      name: 'a pack next to the builtin host_tail_file (its description in Chinese, its result fields in English)',
      files: packs(TAIL),
      findings: [
        {
          message: `the name and description read like those of the builtin tool "host_tail_file" in the same request (similarity ${score(TAIL, HOST_TAIL_FILE)}, reported from 0.40); also "query_k8s_logs" ${score(TAIL, QUERY_K8S_LOGS)}: the model may call one for the other`,
          line: 1,
          column: colOf(TAIL, '"description"'),
          file: 'skills/tail_log/skill.json',
          hint: /^Say what this tool does that "host_tail_file" does not/,
        },
      ],
    },
    {
      name: 'two packs linted together: reported once, at the later one, naming the earlier',
      files: packs(B, A),
      findings: [
        {
          message: `the name and description read like those of the pack tool "nginx_error_log" in the same request (similarity ${score(A, B)}, reported from 0.40): the model may call one for the other`,
          line: 1,
          column: colOf(A, '"description"'),
          file: 'skills/nginx_errors/skill.json',
          hint: /^Say in each description what sets it apart from "nginx_error_log"/,
        },
      ],
    },
  ],
})

test('the packs ongrid-skill ships as examples are not reported', async () => {
  const dir = join(import.meta.dirname, '../../../../..')
  assert.deepEqual(await runRule(rule, dir, 'examples/skills'), [])
})
