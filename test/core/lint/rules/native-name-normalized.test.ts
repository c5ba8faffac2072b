import rule from '../../../../src/core/lint/rules/native-name-normalized.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean SKILL.md', files: CLEAN_NATIVE }],
  invalid: [
    {
      files: { 'skills/n/SKILL.md': '---\nname: Disk-Report\ndescription: d\n---\n' },
      findings: [
        {
          message: 'name "Disk-Report" is not snake_case; normalized to "disk_report"',
          line: 2,
          column: 7,
          file: 'skills/n/SKILL.md',
        },
      ],
      output: { 'skills/n/SKILL.md': '---\nname: disk_report\ndescription: d\n---\n' },
    },
    {
      name: 'quoted, commented, CRLF, and names YAML would read as something else',
      files: {
        'skills/a/SKILL.md': '---\r\nname: "Disk Report" # the title\r\ndescription: d\r\n---\r\n',
        'skills/b/SKILL.md': "---\nname:   'It''s 2'\ndescription: d\n---\n",
        'skills/c/SKILL.md': '---\nname: 123-A\ndescription: d\n---\n',
        'skills/d/SKILL.md': '---\ndescription: d\nname: TRUE\n---\n',
      },
      findings: [
        { message: /normalized to "disk_report"$/, line: 2, column: 7, file: 'skills/a/SKILL.md' },
        { message: /normalized to "it_s_2"$/, line: 2, column: 9, file: 'skills/b/SKILL.md' },
        { message: /normalized to "123_a"$/, line: 2, column: 7, file: 'skills/c/SKILL.md' },
        { message: /normalized to "true"$/, line: 3, column: 7, file: 'skills/d/SKILL.md' },
      ],
      output: {
        'skills/a/SKILL.md': '---\r\nname: disk_report # the title\r\ndescription: d\r\n---\r\n',
        'skills/b/SKILL.md': '---\nname:   it_s_2\ndescription: d\n---\n',
        'skills/c/SKILL.md': '---\nname: "123_a"\ndescription: d\n---\n',
        'skills/d/SKILL.md': '---\ndescription: d\nname: "true"\n---\n',
      },
    },
    {
      name: 'a flow mapping, quoted or not, and a plain scalar on two lines: only the scalar is edited',
      files: {
        'skills/a/SKILL.md': '---\n{name: Disk-Free, description: Reports free space.}\n---\n',
        'skills/b/SKILL.md': '---\n{ description: "d, e", name: "Disk Free" , x: 1 }\n---\n',
        'skills/c/SKILL.md': "---\n{name: 'It''s', description: d}\n---\n",
        'skills/d/SKILL.md': '---\nname: Disk\n  Report\ndescription: d\n---\n',
        'skills/e/SKILL.md': '---\n{name: Disk-Free,\n description: d}\n---\n',
      },
      findings: [
        { message: /normalized to "disk_free"$/, line: 2, column: 8, file: 'skills/a/SKILL.md' },
        { message: /normalized to "disk_free"$/, line: 2, column: 30, file: 'skills/b/SKILL.md' },
        { message: /normalized to "it_s"$/, line: 2, column: 8, file: 'skills/c/SKILL.md' },
        { message: /normalized to "disk_report"$/, line: 2, column: 7, file: 'skills/d/SKILL.md' },
        { message: /normalized to "disk_free"$/, line: 2, column: 8, file: 'skills/e/SKILL.md' },
      ],
      output: {
        'skills/a/SKILL.md': '---\n{name: disk_free, description: Reports free space.}\n---\n',
        'skills/b/SKILL.md': '---\n{ description: "d, e", name: disk_free , x: 1 }\n---\n',
        'skills/c/SKILL.md': '---\n{name: it_s, description: d}\n---\n',
        'skills/d/SKILL.md': '---\nname: disk_report\ndescription: d\n---\n',
        'skills/e/SKILL.md': '---\n{name: disk_free,\n description: d}\n---\n',
      },
    },
    {
      name: 'an anchor, a tag or an alias is left to the author',
      files: {
        'skills/a/SKILL.md': '---\nname: &n Disk-Free\ndescription: d\n---\n',
        'skills/b/SKILL.md': '---\nname: !!str Disk-Free\ndescription: d\n---\n',
      },
      findings: [
        { message: /normalized to "disk_free"$/, line: 2, column: 7, file: 'skills/a/SKILL.md' },
        { message: /normalized to "disk_free"$/, line: 2, column: 7, file: 'skills/b/SKILL.md' },
      ],
      output: {
        'skills/a/SKILL.md': '---\nname: &n Disk-Free\ndescription: d\n---\n',
        'skills/b/SKILL.md': '---\nname: !!str Disk-Free\ndescription: d\n---\n',
      },
    },
    {
      name: 'a block scalar is left to the author',
      files: { 'skills/n/SKILL.md': '---\nname: >-\n  Disk Report\ndescription: d\n---\n' },
      findings: [{ message: /normalized to "disk_report"$/, line: 2, column: 7, file: 'skills/n/SKILL.md' }],
      output: { 'skills/n/SKILL.md': '---\nname: >-\n  Disk Report\ndescription: d\n---\n' },
    },
  ],
})
