import { EVAL_DEFAULT_MODEL as DEFAULT_MODEL, EVAL_PROFILES as PROFILES } from '../flag-sources.js'
import { defineSpec, flag } from '../spec.js'
import { EVAL_FORMATS } from './defaults.js'
import { managerVersionFlag, rootFlag } from './shared.js'

export const evalSpec = defineSpec({
  id: 'eval',
  summary: "Does the manager's LLM call your skill, with the right args?",
  description: `Sends a model the request the manager's own agent (the legacy kernel, v0.13.4) would send: every builtin tool of the manager's configuration (--profile install: the compose install, Prometheus on, 28 tools offered; code-defaults: the binary with no environment, 22) and the packs' safe skills as the bridge defines them (lint --show-tool), less web_search (unless --web-search) and execute_k8s_action (unless --k8s-write); a pack that takes a builtin's name replaces it, as the registry does. No system prompt; temperature 0.1, none for a reasoning model (the default model is one).

--print-request --prompt TEXT prints the first request's exact body (tools sorted by name); no endpoint needed.

--cases FILE (default: each pack's tests/evals.json) runs the agent loop for each case against an OpenAI-compatible chat-completions endpoint (--base-url, or OPENAI_BASE_URL; a URL without a path gets /v1, as the manager does; the key from OPENAI_API_KEY or --api-key-file, never from the command line). Calls of pack tools run through the executor as the bridge runs them; builtin tools answer from the case's tool_results, or with the error "eval: no canned result for builtin tool "NAME" in this case (give one in its tool_results)". Each request sends the tools in a new order from --seed (the manager's order is a Go map's); 30 requests at most.

A case file: {"cases":[{"name","prompt","expect":{"tool": NAME or null for no call,"args":{a subset the call must match}},"tool_results":{"BUILTIN": RESULT}}]}.`,
  examples: [
    [
      'The first request the manager would send for a prompt',
      '<%= config.bin %> <%= command.id %> ./disk_usage --print-request --prompt "Is /var full on db-1?"',
    ],
    [
      "Run the pack's cases against a local Ollama",
      '<%= config.bin %> <%= command.id %> ./disk_usage --base-url http://localhost:11434 --model qwen3:8b',
    ],
    [
      'Five rounds each, recorded for CI',
      '<%= config.bin %> <%= command.id %> ./disk_usage --repeat 5 --seed 7 --record evals.rec.json',
    ],
    [
      'Gate CI on the recording, no endpoint needed',
      '<%= config.bin %> <%= command.id %> ./disk_usage --replay evals.rec.json',
    ],
  ],
  strict: false,
  args: {
    path: { description: 'pack dir, skill.json, or a dir to walk; repeatable (default: .)' },
  },
  flags: {
    root: rootFlag,
    'print-request': flag.boolean({
      description: "print the first request's body and exit (needs --prompt)",
    }),
    prompt: flag.string({ description: 'the user message, for --print-request' }),
    cases: flag.string({ description: "case file (default: each pack's tests/evals.json)" }),
    profile: flag.option({
      description: "the manager's configuration whose builtin tools are offered",
      options: PROFILES,
      default: 'install' as const,
    }),
    model: flag.string({ description: `model (default: the manager's, ${DEFAULT_MODEL})` }),
    'base-url': flag.string({
      description: 'OpenAI-compatible endpoint (default: $OPENAI_BASE_URL, else https://api.openai.com/v1)',
    }),
    'api-key-file': flag.string({ description: 'read the key from this file (default: $OPENAI_API_KEY)' }),
    seed: flag.string({ description: 'seed of the tool order of each request (default: random; reported)' }),
    repeat: flag.string({
      description: 'runs of each case (default 1); the pass rate and its spread are reported',
    }),
    'min-pass-rate': flag.string({
      description: 'exit 0 when this share of runs passes (0-1 or N%), not only when all do',
    }),
    record: flag.string({
      description: 'keep every request and response in this new file',
      exclusive: ['replay'],
    }),
    replay: flag.string({ description: 'answer from a recording instead of an endpoint' }),
    'web-search': flag.boolean({ description: "the turn enables web search (the chat input's globe)" }),
    'k8s-write': flag.boolean({
      description: "an admin with the agent's write actions on: execute_k8s_action offered",
    }),
    'manager-version': managerVersionFlag,
    format: flag.option({
      description: 'output format',
      options: EVAL_FORMATS,
      default: 'stylish' as const,
    }),
  },
  exits: [
    { code: 0, kind: 'ok', help: 'every run passed (or --min-pass-rate met)' },
    { code: 1, kind: 'failed', help: 'a run failed (or a replayed request no longer matches the recording)' },
    { code: 2, kind: 'usage', help: 'usage error or the endpoint failed' },
    {
      code: 130,
      kind: 'signal',
      help: "interrupted (128 + the signal's number; the running pack's process group is killed)",
    },
  ],
  schema: 'eval.schema.json',
})
