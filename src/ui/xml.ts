/** Text for an XML 1.0 attribute or element (JUnit reports). */
export function xml(s: string): string {
  // XML 1.0 cannot carry most control characters, even escaped: drop them.
  return s
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}
