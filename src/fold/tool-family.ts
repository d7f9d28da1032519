/** Families of tools that get a sharper skeleton line than the generic one. */
export type ToolFamily = 'bash' | 'read' | 'edit' | 'write' | 'grep' | 'search' | 'fetch' | 'other';

const FAMILIES: ReadonlyArray<[ToolFamily, RegExp]> = [
  ['bash', /^(bash|shell|sh|runshellcommand|executecommand|execute|terminal|runcommand|exec|command)$/],
  ['read', /^(read|readfile|readmanyfiles|view|viewfile|open|openfile|cat)$/],
  [
    'edit',
    /^(edit|update|multiedit|strreplace|strreplaceeditor|strreplacebasededittool|replace|applypatch|patch|editfile)$/,
  ],
  ['write', /^(write|writefile|create|createfile|notebookedit)$/],
  ['grep', /^(grep|glob|find|findfiles|list|ls|listdir|listfiles|searchfiles|searchcode|codesearch)$/],
  ['search', /^(search|websearch|googlesearch|searchweb|toolsearch)$/],
  ['fetch', /^(fetch|webfetch|http|httprequest|curl|browse|openurl)$/],
];

export function toolFamily(name: string): ToolFamily {
  const key = name.toLowerCase().replace(/[^a-z]/g, '');
  for (const [family, pattern] of FAMILIES) if (pattern.test(key)) return family;
  return 'other';
}
