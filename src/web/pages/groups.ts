/**
 * `/admin/groups`: for administrators. Lists the organization groups queried as
 * `funder_groups` and `research_org_groups`, defines one (members pasted as ids, or an
 * organization with everything under it in the hierarchy) and removes one, after a
 * confirmation. `quarry groups` does the same from the command line.
 */
import type { QuarryError } from '../../errors/index.ts';
import type { StoredGroup } from '../../store/organization-groups.ts';
import { html, type Html } from '../html.ts';
import { csrfField, errorBox, noticeBox, page, type PageContext } from '../layout.ts';

/** How many member ids a row shows before "and N more". */
const MEMBERS_SHOWN = 5;

export interface GroupsData {
  readonly sources: readonly string[];
  readonly groups: readonly StoredGroup[];
  readonly error?: QuarryError;
  readonly notice?: string;
  /** The form as it was sent, kept when it is refused so nothing typed is lost. */
  readonly form?: Readonly<Record<string, string>>;
}

function groupRow(ctx: PageContext, group: StoredGroup): Html {
  const shown = group.organization_ids.slice(0, MEMBERS_SHOWN);
  const more = group.organization_ids.length - shown.length;
  const query = `search ${group.source} where id = "${group.id}" return ${group.source}`;
  return html`<tr id="group-${group.source}-${group.id}">
  <td data-label="Group"><strong>${group.name}</strong><br><code>${group.id}</code></td>
  <td data-label="Members">${group.organization_ids.length} organization${group.organization_ids.length === 1 ? '' : 's'}<br><span class="muted">${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}</span></td>
  <td data-label="Query"><code>${query}</code></td>
  <td data-label="Actions"><a class="button danger" href="/admin/groups/${group.source}/${encodeURIComponent(group.id)}/remove" aria-label="Remove ${group.name}">Remove</a></td>
</tr>`;
}

export function groupsPage(ctx: PageContext, data: GroupsData): Html {
  const form = data.form ?? {};
  const value = (name: string): string => form[name] ?? '';
  return page(ctx, {
    title: 'Organization groups',
    body: html`<h1>Organization groups</h1>
<p><a href="/admin">Back to the accounts</a></p>
${data.error && errorBox(data.error)}
${noticeBox(data.notice)}
<p>Named sets of organizations, searched as their own sources (<code>search funder_groups for "..." return funder_groups</code>). A group's members are organization ids; they need not be held. The command line does the same with <code>quarry groups define|list|remove</code>.</p>
${data.sources.map((source) => {
  const groups = data.groups.filter((g) => g.source === source);
  return html`<h2 id="${source}">${source}</h2>
${
  groups.length === 0
    ? html`<p class="muted">No group yet.</p>`
    : html`<div class="table-wrap"><table class="stack-on-phone" aria-labelledby="${source}">
  <thead><tr><th scope="col">Group</th><th scope="col">Members</th><th scope="col">Query</th><th scope="col">Actions</th></tr></thead>
  <tbody>${groups.map((g) => groupRow(ctx, g))}</tbody>
</table></div>`
}`;
})}
<h2 id="define">Define a group</h2>
<form method="post" action="/admin/groups" class="card">
  ${csrfField(ctx)}
  <label for="group-source">Source</label>
  <select id="group-source" name="source">
    ${data.sources.map((s) => html`<option value="${s}"${value('source') === s ? html` selected` : ''}>${s}</option>`)}
  </select>
  <label for="group-name">Name</label>
  <input type="text" id="group-name" name="name" required maxlength="200" value="${value('name')}">
  <label for="group-id">Id (empty: made from the name)</label>
  <input type="text" id="group-id" name="id" maxlength="100" value="${value('id')}">
  <fieldset><legend>Members: one of</legend>
  <label for="group-members">Organization ids, one per line (or a JSON array, or CSV with the id first)</label>
  <textarea id="group-members" name="members" rows="6">${value('members')}</textarea>
  <label for="group-organization">or an organization id: it and every organization under it in the hierarchy</label>
  <input type="text" id="group-organization" name="organization" value="${value('organization')}">
  </fieldset>
  <button type="submit">Save the group</button>
</form>`,
  });
}
