import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { fromText, toText } from '../../../src/core/go/gostring.js'
import type { InitAnswers } from '../../../src/core/init/options.js'
import { EXAMPLE_ARGS, formatJson, MANIFEST, renderPack, renderText } from '../../../src/core/init/render.js'
import { listTemplates, loadTemplate, TemplateError } from '../../../src/core/init/templates.js'
import { decodeManifest } from '../../../src/core/loader/manifest.js'
import { compileSchema } from '../../../src/core/schema/compile.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

const answers = (over: Partial<InitAnswers> = {}): InitAnswers => ({
  name: 'check_port',
  description: 'Check whether a TCP port on a host accepts connections.',
  class: 'safe',
  category: 'network',
  timeoutSeconds: 15,
  template: 'bash',
  envAllow: [],
  ...over,
})

const text = (files: { path: string; content: Buffer }[], path: string) =>
  files.find((f) => f.path === path)?.content.toString('utf8') ?? assert.fail(`no ${path}`)

describe('built-in templates', () => {
  const templates = listTemplates()

  test('bash, go, node and python are there, each with a one-line description', () => {
    assert.deepEqual(
      templates.map((t) => t.name),
      ['bash', 'go', 'node', 'python'],
    )
    for (const t of templates) assert.match(t.description, /^[^\n]{20,120}$/)
  })

  for (const t of templates) {
    test(`${t.name}: the schema describes every param, and the example args satisfy it`, async () => {
      const schema = t.schema as { properties: Record<string, { description?: string }> }
      assert.equal(t.schema.$schema, 'https://json-schema.org/draft/2020-12/schema')
      assert.equal(t.schema.additionalProperties, false)
      for (const [k, p] of Object.entries(schema.properties))
        assert.ok(p.description, `${k} has no description`)
      const compiled = await compileSchema(t.schema, { strict: true })
      assert.ok(compiled.ok, compiled.ok ? '' : compiled.error)
      if (compiled.ok)
        assert.ok(compiled.schema.validate(t.exampleArgs), JSON.stringify(compiled.schema.validate.errors))
    })

    test(`${t.name}: renders a pack the loader builds, with the entry executable`, () => {
      const pack = renderPack(t, answers({ template: t.name }))
      const paths = pack.files.map((f) => f.path)
      assert.equal(paths[0], MANIFEST)
      assert.ok(paths.includes('README.md') && paths.includes(EXAMPLE_ARGS))
      if (t.build) assert.equal(pack.entry, 'bin/check_port')
      else assert.equal(pack.files.find((f) => f.path === pack.entry)?.mode, 0o755)
      for (const f of pack.files)
        assert.doesNotMatch(f.content.toString('utf8'), /\{\{(name|entry|description|class)\}\}/, f.path)
      const decoded = decodeManifest(fromText(text(pack.files, MANIFEST)))
      assert.equal(decoded.err, null)
    })
  }
})

describe('rendering', () => {
  const nasty = 'Says "hi" \\ to {{name}}\nand\ttabs </script> \u2028 \ud83d\ude00'

  test('skill.json holds any description as valid JSON, every field explicit', () => {
    const pack = renderPack(loadTemplate('python'), answers({ description: nasty, envAllow: ['PATH'] }))
    const m = JSON.parse(text(pack.files, MANIFEST))
    assert.deepEqual(Object.keys(m), [
      'name',
      'description',
      'entry',
      'class',
      'category',
      'timeout_seconds',
      'env_allow',
      'schema',
    ])
    assert.equal(m.description, nasty)
    assert.equal(m.class, 'safe')
    assert.deepEqual(m.env_allow, ['PATH'])
    // The manager's own decoding and build checks accept it.
    const decoded = decodeManifest(fromText(text(pack.files, MANIFEST)))
    assert.equal(decoded.err, null)
    assert.equal(toText(decoded.manifest.description), nasty)
  })

  test('JSON reads as people write it: arrays of plain values on one line, same value', () => {
    const pack = renderPack(loadTemplate('python'), answers({ envAllow: ['PATH', 'LANG'] }))
    const m = text(pack.files, MANIFEST)
    assert.match(m, /\n {2}"env_allow": \["PATH", "LANG"\],\n/)
    assert.match(m, /\n {4}"required": \["host", "port"\],\n/)
    const v = {
      a: ['x"y\\z', 'a,\nb', ']', 1, -2.5e3, true, null],
      b: [],
      c: [{ d: [1] }, 2],
      e: [[1], ['x']],
    }
    const t = formatJson(v)
    assert.deepEqual(JSON.parse(t), v)
    assert.ok(t.includes('"a": ["x\\"y\\\\z", "a,\\nb", "]", 1, -2500, true, null]'), t)
  })

  test('user text goes only into Markdown (raw) and JSON (escaped), never into code', () => {
    const vals = { name: 'n', description: nasty }
    assert.equal(renderText('# {{name}}\n{{description}}', 'README.md', vals), `# n\n${nasty}`)
    assert.deepEqual(JSON.parse(renderText('{"d": "{{description}}"}', 'x.json', vals)), { d: nasty })
    assert.equal(
      renderText('SKILL={{name}} {{unknown}} {{ name }}', 'run.sh', vals),
      'SKILL=n {{unknown}} {{ name }}',
    )
    assert.throws(
      () => renderText('echo "{{description}}"', 'run.sh', vals),
      new TemplateError(
        'run.sh uses {{description}}: text the user types goes only into Markdown and JSON files, never into code',
      ),
    )
    const pack = renderPack(loadTemplate('bash'), answers({ description: nasty }))
    assert.ok(text(pack.files, 'README.md').includes(nasty))
    assert.ok(!text(pack.files, 'run.sh').includes('Says'))
  })
})

describe('custom templates', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    const tj = (over: Record<string, unknown> = {}) =>
      JSON.stringify({
        description: 'A team template',
        entry: 'bin/{{name}}.sh',
        schema: { type: 'object', properties: {} },
        example_args: {},
        ...over,
      })
    makeTree(R, {
      'good/template.json': tj(),
      'good/files/bin/{{name}}.sh': { exec: '#!/bin/sh\necho "{\\"skill\\": \\"{{name}}\\"}"\n' },
      'good/files/README.md': '# {{name}}\n',
      'good/files/data/blob.bin': 'a\u0000{{description}}',
      'good/files/__pycache__/run.cpython-311.pyc': 'never copied',
      'nojson/files/README.md': 'x',
      'badjson/template.json': '{"description":',
      'badjson/files/README.md': 'x',
      'secret/template.json': 'TOKEN=hunter2',
      'secret/files/README.md': 'x',
      'nofiles/template.json': tj(),
      'escape/template.json': tj({ entry: '../run.sh' }),
      'escape/files/README.md': 'x',
      'reserved/template.json': tj({ entry: 'run.sh' }),
      'reserved/files/run.sh': { exec: '#!/bin/sh\n' },
      'reserved/files/README.md': 'x',
      'reserved/files/skill.json': '{}',
      'noentry/template.json': tj({ entry: 'run.sh' }),
      'noentry/files/README.md': 'x',
      'linked/template.json': tj({ entry: 'run.sh' }),
      'linked/files/run.sh': { exec: '#!/bin/sh\n' },
      'linked/files/README.md': 'x',
      'linked/files/conf/secret': { link: '/etc/passwd' },
      'linkdir/template.json': tj({ entry: 'run.sh' }),
      'linkdir/files': { link: '/etc' },
      'zerojson/template.json': { link: '/dev/zero' },
      'zerojson/files/README.md': 'x',
    })
  })
  after(() => cleanup())

  test('a template dir renders like a built-in one (placeholders in paths, binaries as they are)', () => {
    const t = loadTemplate('./good', R)
    assert.equal(t.builtin, false)
    const pack = renderPack(t, answers())
    assert.equal(pack.entry, 'bin/check_port.sh')
    assert.deepEqual(
      pack.files.map((f) => [f.path, f.mode]),
      [
        ['skill.json', 0o644],
        ['README.md', 0o644],
        ['bin/check_port.sh', 0o755],
        ['data/blob.bin', 0o644],
        ['examples/args.json', 0o644],
      ],
    )
    assert.equal(text(pack.files, 'data/blob.bin'), 'a\u0000{{description}}')
    assert.equal(JSON.parse(text(pack.files, MANIFEST)).entry, 'bin/check_port.sh')
  })

  test('a broken template dir is refused with what to fix', () => {
    const err = (spec: string) => {
      try {
        renderPack(loadTemplate(spec, R), answers())
      } catch (e) {
        assert.ok(e instanceof TemplateError, String(e))
        return e.message
      }
      return assert.fail(`${spec} was accepted`)
    }
    assert.match(err('./none'), /^template \.\/none: not a directory$/)
    assert.match(
      err('./nojson'),
      /: no template\.json \(a template dir holds template\.json and a files\/ dir/,
    )
    assert.match(
      err('./badjson'),
      /: template\.json: not JSON: unexpected end of JSON input \(line 1, column 15\)$/,
    )
    // Go's words and a position, never an excerpt of the file (a symlink to an environ, a key).
    assert.match(
      err('./secret'),
      /: template\.json: not JSON: invalid character 'T' looking for beginning of value \(line 1, column 1\)$/,
    )
    assert.ok(!err('./secret').includes('hunter2'))
    assert.match(err('./nofiles'), /: no files\/ dir/)
    assert.match(err('./escape'), /"entry" must be a relative path inside the pack, not \.\.\/run\.sh/)
    assert.match(err('./reserved'), /files\/skill\.json: init writes skill\.json itself/)
    assert.match(err('./noentry'), /the entry run\.sh is not in files\/ and no build step makes it/)
    assert.match(err('nope'), /^unknown template "nope": the built-in ones are bash, go, node, python/)
  })

  test('a symlink in files/ is refused, never followed (its target is not copied)', () => {
    const err = (spec: string) => {
      try {
        renderPack(loadTemplate(spec, R), answers())
      } catch (e) {
        assert.ok(e instanceof TemplateError, String(e))
        return e.message
      }
      return assert.fail(`${spec} was accepted`)
    }
    assert.equal(
      err('./linked'),
      `template linked: files/conf/secret is a symbolic link (to /etc/passwd): a template holds regular files only, and init does not copy what a link points to`,
    )
    assert.match(err('./linkdir'), /: files\/ is a symbolic link/)
    assert.match(err('./zerojson'), /: template\.json: not a regular file$/)
  })
})
