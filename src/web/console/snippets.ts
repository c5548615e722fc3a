/**
 * The query as code to run elsewhere: curl against this server (auth-path, a JWT from an
 * API key), Python with dimcli, and R with dimensionsR. Both clients speak the auth-path
 * family, so they work against this server when given its address. The key is a
 * placeholder: the page never has it.
 */

export type SnippetLanguage = 'curl' | 'python' | 'r';

export const SNIPPET_LANGUAGES: readonly { readonly id: SnippetLanguage; readonly label: string }[] = [
  { id: 'curl', label: 'curl' },
  { id: 'python', label: 'Python (dimcli)' },
  { id: 'r', label: 'R (dimensionsR)' },
];

/** A shell word in single quotes. */
function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A Python triple-quoted string, escaping what would end or change it. */
function pythonString(text: string): string {
  return `"""${text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"')}"""`;
}

/** An R string literal. */
function rString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/**
 * The snippet for one language.
 *
 * @example snippet('curl', 'http://h', 'describe schema', 2) // 'JWT=$(curl ... /api/dsl/v2 ...'
 */
export function snippet(language: SnippetLanguage, baseUrl: string, query: string, version: number): string {
  const dsl = `${baseUrl}/api/dsl/v${version}`;
  switch (language) {
    case 'curl':
      return [
        `JWT=$(curl -s -X POST ${shellQuoted(`${baseUrl}/api/auth`)} -H 'Content-Type: application/json' \\`,
        `  -d '{"key": "'"$QUARRY_KEY"'"}' | sed -E 's/.*"token":"([^"]+)".*/\\1/')`,
        `curl -s -X POST ${shellQuoted(dsl)} \\`,
        `  -H "Authorization: JWT $JWT" \\`,
        `  --data-binary ${shellQuoted(query)}`,
      ].join('\n');
    case 'python':
      return [
        'import os',
        'import dimcli',
        '',
        `dimcli.login(key=os.environ["QUARRY_KEY"], endpoint=${JSON.stringify(baseUrl)})`,
        'dsl = dimcli.Dsl()',
        `result = dsl.query(${pythonString(query)})`,
        'df = result.as_dataframe()',
        'print(df.head())',
      ].join('\n');
    case 'r':
      return [
        'library(dimensionsR)',
        '',
        `token <- dsAuth(key = Sys.getenv("QUARRY_KEY"), auth_endpoint = ${rString(`${baseUrl}/api/auth.json`)})`,
        `query <- ${rString(query)}`,
        `result <- dsApiRequest(token = token, endpoint = ${rString(`${baseUrl}/api/dsl.json`)}, query = query)`,
      ].join('\n');
  }
}
