import type { CodeTable } from '../code-table.ts';

/**
 * Error codes of the organization groups an administrator defines (`quarry groups`, the
 * admin page). Codes are never renamed or reused once published.
 */
export const GROUP_CODES = {
  GROUP_UNKNOWN_SOURCE: {
    category: 'input',
    message: 'There is no group source {value}; expected one of {sources}.',
    fix: 'Name one of the listed sources, such as `quarry groups list funder_groups`.',
  },
  GROUP_BAD_ID: {
    category: 'input',
    message:
      'A group id is 1 to 100 letters, digits, dots, colons, underscores or hyphens, starting with a letter or digit; got {value}.',
    fix: 'Give an id such as `--id eu-research-councils`, or leave it out to make one from the name.',
  },
  GROUP_BAD_NAME: {
    category: 'input',
    message: 'A group name is 1 to 200 characters of text on one line; got {value}.',
    fix: 'Give a name such as `--name "European research councils"`.',
  },
  GROUP_MEMBERS_UNREADABLE: {
    category: 'input',
    message: '{file} is not a list of organization ids Quarry can read: {reason}',
    fix: 'Give a JSON array of ids (or an object with an `organization_ids` array), or a CSV file with one id per line in its first column (a first line `id` or `organization_id` is a header).',
  },
  GROUP_MEMBERS_OPTION: {
    category: 'input',
    message: 'Give the members one way: exactly one of {options}.',
    fix: 'Name a members file (`--members orgs.csv`) or an organization whose descendants join it with it (`--organization https://ror.org/...`).',
  },
  GROUP_NO_MEMBERS: {
    category: 'input',
    message: 'The group {id} would have no member organizations.',
    fix: 'Give a members file with at least one organization id, or an organization that is held.',
  },
  GROUP_TOO_MANY_MEMBERS: {
    category: 'input',
    message: 'The group {id} would have {count} members, more than the {limit} a group may hold.',
    fix: 'Split it into several groups.',
  },
  GROUP_ORGANIZATION_NOT_FOUND: {
    category: 'not_found',
    message: 'No organization {id} is held, so its descendants are not known.',
    fix: 'Give the id of an imported organization (`quarry query \'search organizations where id = "..." return organizations\'` shows whether it is held).',
  },
  GROUP_NOT_FOUND: {
    category: 'not_found',
    message: 'There is no group {id} in {source}.',
    fix: '`quarry groups list` shows the groups held.',
  },
} as const satisfies CodeTable;
