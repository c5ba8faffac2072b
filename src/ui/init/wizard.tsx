import { Box, type Key, Text, useInput } from 'ink'
import { useRef, useState } from 'react'
import {
  CLASS_CHOICES,
  categoryProblem,
  DEFAULT_CATEGORY,
  DEFAULT_CLASS,
  DEFAULT_TEMPLATE,
  defaultDir,
  defaultTimeoutSeconds,
  descriptionNote,
  descriptionProblem,
  type InitAnswers,
  nameProblem,
  parseEnvAllow,
  parseTimeout,
  timeoutNote,
} from '../../core/init/options.js'
import {
  PARAM_TYPES,
  type Param,
  type ParamType,
  paramDescriptionProblem,
  paramNameProblem,
} from '../../core/init/params.js'
import { editText, moveSelection, type SelectItem, SelectList, splitChunk, TextField } from './fields.js'

/** A template as the wizard offers it. */
export interface WizardTemplate {
  /** What `--template` takes: a built-in name or a dir. */
  name: string
  description: string
  envAllow: string[]
}

export interface WizardProps {
  templates: WizardTemplate[]
  /**
   * Answers given already (NAME, flags): shown as the defaults. With `params` given (--param),
   * no param is asked for; else the wizard asks for them, one by one, after the rest.
   */
  initial?: Partial<InitAnswers>
  /** Where the pack for a name would go, and why it cannot (e.g. a non-empty dir). */
  dirFor?: (name: string) => { dir: string; problem: string | null }
  onDone: (answers: InitAnswers) => void
  onAbort: () => void
  /**
   * Colours on (ui/color.ts decides; default on). Off, no colour is drawn; the cursor (inverse)
   * and the dimmed default stay, they say where typing goes and what Enter takes.
   */
  color?: boolean
}

type StepId = Exclude<keyof InitAnswers, 'params'>

/** The questions in order: env_allow last, since its default comes from the template. */
const STEPS: readonly StepId[] = [
  'name',
  'description',
  'class',
  'category',
  'timeoutSeconds',
  'template',
  'envAllow',
]

const LABELS: Record<StepId, string> = {
  name: 'name',
  description: 'description',
  class: 'class',
  category: 'category',
  timeoutSeconds: 'timeout_seconds',
  template: 'template',
  envAllow: 'env_allow',
}
const LABEL_WIDTH = Math.max(...Object.values(LABELS).map((l) => l.length))

/** The questions asked for each param, in order; an empty name ends the params. */
type ParamStage = 'name' | 'type' | 'description' | 'required'
const PARAM_LABELS: Record<ParamStage, string> = {
  name: 'param',
  type: '  type',
  description: '  description',
  required: '  required',
}
const TYPE_ITEMS = PARAM_TYPES.map((t) => ({ value: t, note: '' }))
const REQUIRED_ITEMS = [
  { value: 'yes', note: 'the caller must pass it' },
  { value: 'no', note: 'the caller may leave it out' },
]

function shownParam(p: Param): string {
  return `${p.name}: ${p.type}${p.required ? ', required' : ''}${p.description ? ` — ${p.description}` : ''}`
}
const INDENT = ' '.repeat(LABEL_WIDTH + 3)

/** A question answered by typing. */
interface TextStep {
  kind: 'text'
  default: string
  /** Why the value cannot be taken (for the name: the loader's message), checked as typed. */
  problem: (v: string) => string | null
  /** Worth knowing about a value that can be taken; `warning: …` shows in yellow. */
  note: (v: string) => string | null
  answer: (v: string) => Partial<InitAnswers>
}

/** A question answered by picking. */
interface SelectStep {
  kind: 'select'
  items: readonly SelectItem<string>[]
  initial: string
  answer: (v: string) => Partial<InitAnswers>
}

function shown(id: StepId, a: Partial<InitAnswers>): string {
  const v = a[id]
  if (Array.isArray(v)) return v.length === 0 ? '(none)' : v.join(', ')
  if (id === 'timeoutSeconds') return `${v} s`
  return String(v)
}

/**
 * The init wizard: one question at a time, with defaults and live checks; Enter accepts,
 * Esc or Ctrl-C aborts (nothing is written before the last answer).
 */
export function Wizard({ templates, initial = {}, dirFor, onDone, onAbort, color = true }: WizardProps) {
  const hue = (c: 'green' | 'cyan' | 'red' | 'yellow') => (color ? c : undefined)
  // One key handler for every question, reading refs: keys may come faster than React renders.
  const step = useRef(0)
  const typed = useRef('')
  const picked = useRef(-1)
  const answers = useRef<Partial<InitAnswers>>({})
  const over = useRef(false)
  const params = useRef<Param[]>([])
  const stage = useRef<ParamStage>('name')
  const draft = useRef<Partial<Param>>({})
  const [, render] = useState(0)
  const [refused, setRefused] = useState(false)
  const rerender = () => render((n) => n + 1)

  /** The question of a step, with defaults and checks that follow the earlier answers. */
  const question = (id: StepId, a: Partial<InitAnswers>): TextStep | SelectStep => {
    const klass = a.class ?? initial.class ?? DEFAULT_CLASS
    const template = templates.find((t) => t.name === (a.template ?? initial.template ?? DEFAULT_TEMPLATE))
    return questions(klass, template)[id]
  }
  const questions = (
    klass: InitAnswers['class'],
    template: WizardTemplate | undefined,
  ): Record<StepId, TextStep | SelectStep> => ({
    name: {
      kind: 'text',
      default: initial.name ?? '',
      problem: (v) => nameProblem(v) ?? dirFor?.(v).problem ?? null,
      note: (v) =>
        v === ''
          ? 'lower_snake [a-z0-9_]: the key the manager registers'
          : `the pack goes into ${dirFor?.(v).dir ?? defaultDir(v)}/`,
      answer: (v) => ({ name: v }),
    },
    description: {
      kind: 'text',
      default: initial.description ?? '',
      problem: descriptionProblem,
      note: (v) => {
        const n = descriptionNote(v)
        return n ? `warning: ${n}` : 'what the LLM and the skill list show: what it does and when to use it'
      },
      answer: (v) => ({ description: v }),
    },
    class: {
      kind: 'select',
      items: CLASS_CHOICES,
      initial: initial.class ?? DEFAULT_CLASS,
      answer: (v) => ({ class: v as InitAnswers['class'] }),
    },
    category: {
      kind: 'text',
      default: initial.category ?? DEFAULT_CATEGORY,
      problem: categoryProblem,
      note: () => null,
      answer: (v) => ({ category: v.trim() }),
    },
    timeoutSeconds: {
      kind: 'text',
      default: String(initial.timeoutSeconds ?? defaultTimeoutSeconds(klass)),
      problem: (v) => {
        const t = parseTimeout(v)
        return t.ok ? null : t.problem
      },
      note: (v) => {
        const t = parseTimeout(v)
        const n = t.ok ? timeoutNote(t.value, klass) : null
        return n ? `warning: ${n}` : 'then the manager kills the whole process group'
      },
      answer: (v) => {
        // A duration (2m) or seconds: checked by problem() before an answer is taken.
        const t = parseTimeout(v)
        return { timeoutSeconds: t.ok ? t.value : Number(v.trim()) }
      },
    },
    template: {
      kind: 'select',
      items: templates.map((t) => ({ value: t.name, note: t.description })),
      initial: initial.template ?? DEFAULT_TEMPLATE,
      answer: (v) => ({ template: v }),
    },
    envAllow: {
      kind: 'text',
      default: (initial.envAllow ?? template?.envAllow ?? []).join(','),
      problem: (v) => {
        const e = parseEnvAllow(v)
        return e.ok ? null : e.problem
      },
      note: (v) => {
        const e = parseEnvAllow(v)
        const lacking = e.ok ? (template?.envAllow ?? []).filter((n) => !e.value.includes(n)) : []
        return lacking.length > 0
          ? `warning: the ${template?.name} template needs ${lacking.join(', ')} (see its README)`
          : 'the only environment variables the manager passes, comma-separated; empty for none'
      },
      answer: (v) => {
        const e = parseEnvAllow(v)
        return { envAllow: e.ok ? e.value : [] }
      },
    },
  })

  const selected = (s: SelectStep) =>
    picked.current >= 0
      ? picked.current
      : Math.max(
          0,
          s.items.findIndex((i) => i.value === s.initial),
        )

  const advance = (update: Partial<InitAnswers>) => {
    answers.current = { ...answers.current, ...update }
    step.current += 1
    typed.current = ''
    picked.current = -1
    setRefused(false)
    rerender()
    if (step.current === STEPS.length && initial.params !== undefined) finish(initial.params)
  }

  const finish = (given: Param[]) => {
    over.current = true
    onDone({ ...(answers.current as InitAnswers), params: given })
  }

  /** The question for the param being asked about (name, type, description, required). */
  const paramQuestion = (): TextStep | SelectStep => {
    const nothing = () => ({})
    switch (stage.current) {
      case 'name':
        return {
          kind: 'text',
          default: '',
          problem: (v) =>
            v === ''
              ? null
              : (paramNameProblem(v) ??
                (params.current.some((p) => p.name === v) ? `param "${v}" is given already` : null)),
          note: (v) =>
            v !== ''
              ? 'a property of the args the skill takes'
              : params.current.length === 0
                ? 'a param the skill takes (an identifier); Enter with none: no params, the template’s example (a TCP port checker)'
                : 'another param; Enter with none: that is all',
          answer: nothing,
        }
      case 'type':
        return { kind: 'select', items: TYPE_ITEMS, initial: 'string', answer: nothing }
      case 'description':
        return {
          kind: 'text',
          default: '',
          problem: paramDescriptionProblem,
          note: (v) =>
            v === ''
              ? 'warning: what the LLM reads about it: without one, lint warns'
              : 'what the LLM reads about it',
          answer: nothing,
        }
      default:
        return { kind: 'select', items: REQUIRED_ITEMS, initial: 'yes', answer: nothing }
    }
  }

  /** Takes the answer to the param question, and moves on. */
  const answerParam = (v: string) => {
    typed.current = ''
    picked.current = -1
    setRefused(false)
    const d = draft.current
    switch (stage.current) {
      case 'name':
        if (v === '') return finish(params.current)
        d.name = v
        stage.current = 'type'
        break
      case 'type':
        d.type = v as ParamType
        stage.current = 'description'
        break
      case 'description':
        d.description = v.trim()
        stage.current = 'required'
        break
      default:
        params.current = [...params.current, { ...(d as Param), required: v === 'yes' }]
        draft.current = {}
        stage.current = 'name'
    }
    rerender()
  }

  useInput((chunk, chunkKey) => {
    for (const [input, key] of splitChunk(chunk, chunkKey)) onKey(input, key)
  })

  function onKey(input: string, key: Key): void {
    if (over.current) return
    const asking = step.current >= STEPS.length
    const q = asking ? paramQuestion() : question(STEPS[step.current], answers.current)
    const take = (v: string) => (asking ? answerParam(v) : advance(q.answer(v)))
    if (key.escape || (key.ctrl && input === 'c')) {
      over.current = true
      onAbort()
      return
    }
    if (q.kind === 'select') {
      const r = moveSelection(selected(q), q.items.length, input, key)
      if (r === 'submit') take(q.items[selected(q)].value)
      else if (r !== null) {
        picked.current = r
        rerender()
      }
      return
    }
    const r = editText(typed.current, input, key)
    if (r === 'submit') {
      const value = typed.current === '' ? q.default : typed.current
      if (q.problem(value) === null) take(value)
      else setRefused(true)
    } else if (r !== null) {
      typed.current = r
      setRefused(false)
      rerender()
    }
  }

  const a = answers.current
  const id: StepId | undefined = STEPS[step.current]
  const asking = id === undefined && !over.current
  const q = id === undefined ? (asking ? paramQuestion() : undefined) : question(id, a)
  const label = id === undefined ? PARAM_LABELS[stage.current] : LABELS[id]
  const d = draft.current
  const value = q?.kind === 'text' ? (typed.current === '' ? q.default : typed.current) : ''
  const problem = q?.kind === 'text' ? q.problem(value) : null
  // A problem shows once there is a value (typed, or a given default) or Enter was refused;
  // until then, the hint.
  const showProblem = problem !== null && (value !== '' || refused)
  const note = q?.kind === 'text' && !showProblem ? q.note(value) : null
  q?.kind === 'text' && !showProblem && (problem === null || typed.current === '') ? q.note(value) : null
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>ongrid-skill init</Text>
        <Text dimColor>: a new skill pack (Enter accepts, Esc aborts)</Text>
      </Text>
      {STEPS.slice(0, step.current).map((s) => (
        <Text key={s}>
          <Text color={hue('green')}>✔ </Text>
          {LABELS[s].padEnd(LABEL_WIDTH)} {shown(s, a)}
        </Text>
      ))}
      {params.current.map((p) => (
        <Text key={`param ${p.name}`}>
          <Text color={hue('green')}>✔ </Text>
          {PARAM_LABELS.name.padEnd(LABEL_WIDTH)} {shownParam(p)}
        </Text>
      ))}
      {asking && stage.current !== 'name' && (
        <Text>
          <Text color={hue('cyan')}> </Text>
          {PARAM_LABELS.name.padEnd(LABEL_WIDTH)} {d.name}
          {d.type ? `: ${d.type}` : ''}
          {stage.current === 'required' && d.description ? ` — ${d.description}` : ''}
        </Text>
      )}
      {q !== undefined && (
        <Box flexDirection="column">
          <Text>
            <Text color={hue('cyan')}>? </Text>
            {label.padEnd(LABEL_WIDTH)}{' '}
            {q.kind === 'text' && <TextField value={typed.current} placeholder={q.default} />}
          </Text>
          {q.kind === 'select' && <SelectList items={q.items} index={selected(q)} color={color} />}
          {showProblem && (
            <Text color={hue('red')}>
              {INDENT}✘ {problem}
            </Text>
          )}
          {note !== null && (
            <Text
              dimColor={!note.startsWith('warning')}
              color={note.startsWith('warning') ? hue('yellow') : undefined}
            >
              {INDENT}
              {note}
            </Text>
          )}
        </Box>
      )}
    </Box>
  )
}
