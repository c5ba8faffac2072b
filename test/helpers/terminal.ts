import { EventEmitter } from 'node:events'

/** A terminal as ink sees it: every frame written kept, 100 columns, 40 rows. */
export function fakeTerminal() {
  const t = Object.assign(new EventEmitter(), {
    frames: [] as string[],
    columns: 100,
    rows: 40,
    isTTY: true,
    write(s: string) {
      t.frames.push(s)
      return true
    },
  })
  return t
}

/** The text of frames without their CSI sequences (colours, cursor moves). */
export const stripCsi = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
