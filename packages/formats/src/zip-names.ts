/** A ZIP entry's local header starts with these four bytes ("PK\3\4"). */
const LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** Bytes of a local header before the entry's name. */
const FIXED = 30;

/**
 * The names in the local headers found in `head`, a ZIP archive's first bytes, in file order;
 * a header cut off by the end of `head` is left out. Only names are read: no directory, no
 * inflation, so a hostile archive costs a scan of the bytes already in memory.
 */
export function zipEntryNames(head: Buffer, max = 1000): string[] {
  const names: string[] = [];
  for (
    let at = head.indexOf(LOCAL_HEADER);
    at !== -1 && names.length < max;
    at = head.indexOf(LOCAL_HEADER, at + LOCAL_HEADER.length)
  ) {
    if (at + FIXED > head.length) break;
    const length = head.readUInt16LE(at + 26);
    if (at + FIXED + length > head.length) break;
    names.push(head.toString('utf8', at + FIXED, at + FIXED + length));
  }
  return names;
}

/** Where each OOXML application keeps its parts, and what its files are called. */
const OOXML_FOLDERS: [folder: string, format: string, what: string][] = [
  ['word/', 'DOCX', 'a Word document'],
  ['xl/', 'XLSX', 'an Excel workbook'],
  ['ppt/', 'PPTX', 'a PowerPoint presentation'],
];

/**
 * What a ZIP archive that file-type could not name is, when its entries are an Office file's
 * parts: an OOXML package is only recognised by its `[Content_Types].xml` (the manifest that
 * says which part is the document), and one whose manifest is missing or unreadable is a
 * damaged file that neither Word nor LibreOffice opens. Null for any other archive.
 */
export function damagedOfficeFile(head: Buffer): string | null {
  const names = zipEntryNames(head);
  const match = OOXML_FOLDERS.find(([folder]) => names.some((n) => n.startsWith(folder)));
  if (!match) return null;
  const [, format, what] = match;
  return `a ZIP archive with ${what}'s parts but no readable [Content_Types].xml (a damaged ${format} file)`;
}
