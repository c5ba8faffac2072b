import { fromBuffer, type GoString, toText } from '../../go/gostring.js'
import { dir } from '../../go/path/filepath/path.js'
import { type JNode, nodeAt, parseTree } from '../../json-tree.js'
import type { Overlay } from '../../overlay.js'
import { type CaseFile, caseFiles, loadCaseFile, readCaseBytes, TESTS_DIR } from '../../testcases/cases.js'
import { LineIndex } from '../position.js'
import type { Listing } from '../targets.js'

export interface LoadedCases {
  file: CaseFile
  /** line:column of a JSON pointer in the file (1:1 when it cannot be found). */
  position(pointer: string): { line: number; column: number }
  /** The file's bytes as read ('' when unreadable). */
  raw: GoString
  /** The file's JSON tree with offsets, or null (not JSON, unreadable). */
  tree(): JNode | null
}

/** What casesOf reads of a manifest's context (context.ts): its path, the walk's listing of its dir, editors' buffers. */
interface CasesSource {
  readonly path: GoString
  readonly listing?: Listing
  readonly overlay?: Overlay
}

const memo = new WeakMap<CasesSource, LoadedCases[]>()

/** The pack's case files (tests/*.json beside skill.json), read once per context. */
export function casesOf(ctx: CasesSource): LoadedCases[] {
  let v = memo.get(ctx)
  if (v === undefined) {
    // No `tests` in the pack's dir when the walk listed it: nothing to look for on the disk.
    const files = ctx.listing?.names.has(TESTS_DIR) === false ? [] : caseFiles(toText(dir(ctx.path)))
    v = files.map((path) => {
      const file = loadCaseFile(path, ctx.overlay)
      let raw = ''
      // Read again for positions only when loadCaseFile read it (never a file out of the pack).
      if (file.text !== null)
        try {
          raw = fromBuffer(readCaseBytes(path, ctx.overlay))
        } catch {}
      let tree: JNode | null | undefined
      const treeOf = () => {
        if (tree === undefined) {
          try {
            tree = file.json === null ? null : parseTree(raw)
          } catch {
            tree = null
          }
        }
        return tree
      }
      const lines = new LineIndex(raw)
      return {
        file,
        raw,
        tree: treeOf,
        position(pointer: string) {
          if (file.json === null || pointer === '') return { line: 1, column: 1 }
          const tree = treeOf()
          if (tree === null) return { line: 1, column: 1 }
          // The pointer may go one step past what exists (a missing key): point at its parent.
          let p = pointer
          for (;;) {
            const at = nodeAt(tree, p)
            if (at) return lines.position(at.keyStart ?? at.node.start)
            if (p === '' || !p.includes('/')) return { line: 1, column: 1 }
            p = p.slice(0, p.lastIndexOf('/'))
          }
        },
      }
    })
    memo.set(ctx, v)
  }
  return v
}
