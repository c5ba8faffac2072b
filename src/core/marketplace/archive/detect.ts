/** The upload endpoint's choice of format (extractArchive, server/marketplace/upload.go): the file name's suffix only. */

export type ArchiveFormat = 'zip' | 'tar.gz' | 'tar'

/** extractArchive's choice: the lowercased name's suffix, .zip first. */
export function archiveFormat(filename: string): ArchiveFormat | null {
  const n = filename.toLowerCase()
  if (n.endsWith('.zip')) return 'zip'
  if (n.endsWith('.tar.gz') || n.endsWith('.tgz')) return 'tar.gz'
  if (n.endsWith('.tar')) return 'tar'
  return null
}
