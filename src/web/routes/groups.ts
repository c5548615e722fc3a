/**
 * `/admin/groups`: administrators define, list and remove the organization groups (the
 * `funder_groups` and `research_org_groups` sources) through the same `GroupAdministration`
 * as `quarry groups`. Offered only when the composition root gives one (`WebContext.groups`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isQuarryError, QuarryError } from '../../errors/index.ts';
import { STATUS_BY_CATEGORY } from '../../http/status.ts';
import type { GroupAdministration } from '../../store/organization-groups.ts';
import { field, pageContext, type WebContext } from '../context.ts';
import { confirmPage } from '../pages/confirm.ts';
import { groupsPage, type GroupsData } from '../pages/groups.ts';
import { signInRedirect } from './account.ts';
import { requireAdmin } from './admin.ts';

/** Short confirmations after a redirect; `?notice=` may only name one of these. */
const GROUP_NOTICES: Readonly<Record<string, string>> = {
  saved: 'The group is saved; queries see it now.',
  removed: 'The group is removed.',
};

const FORM_FIELDS = ['source', 'name', 'id', 'members', 'organization'] as const;

export function groupRoutes(app: FastifyInstance, ctx: WebContext): void {
  const groups: GroupAdministration | undefined = ctx.groups;
  if (groups === undefined) return;
  const withCsrf = { preHandler: app.csrfProtection.bind(app) };
  type WithGroup = { Params: { source: string; id: string } };

  async function send(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: Partial<GroupsData> = {},
  ): Promise<FastifyReply> {
    const data: GroupsData = { sources: groups!.sources, groups: await groups!.list(), ...extra };
    const status = extra.error ? STATUS_BY_CATEGORY[extra.error.category] : 200;
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .send(groupsPage(pageContext(ctx, request, reply), data).toString());
  }

  app.get('/admin/groups', async (request, reply) => {
    if (!request.web.account) return signInRedirect(request, reply);
    requireAdmin(request);
    const name = (request.query as Record<string, unknown> | undefined)?.notice;
    const notice = typeof name === 'string' ? GROUP_NOTICES[name] : undefined;
    return send(request, reply, notice ? { notice } : {});
  });

  app.post('/admin/groups', withCsrf, async (request, reply) => {
    requireAdmin(request);
    const form = Object.fromEntries(FORM_FIELDS.map((name) => [name, field(request.body, name)]));
    try {
      const saved = await groups.define({
        source: form['source'] ?? '',
        name: form['name'] ?? '',
        id: form['id'],
        membersText: form['members'],
        membersFrom: 'the members field',
        organization: form['organization'],
      });
      return await reply.redirect(`/admin/groups?notice=saved#group-${saved.source}-${saved.id}`, 303);
    } catch (error) {
      if (!isQuarryError(error)) throw error;
      return send(request, reply, { error, form });
    }
  });

  app.get<WithGroup>('/admin/groups/:source/:id/remove', async (request, reply) => {
    if (!request.web.account) return signInRedirect(request, reply);
    requireAdmin(request);
    const { source, id } = request.params;
    const group = (await groups.list(source)).find((g) => g.id === id);
    if (group === undefined) throw QuarryError.of('GROUP_NOT_FOUND', { params: { id: JSON.stringify(id), source } });
    return reply.type('text/html; charset=utf-8').send(
      confirmPage(pageContext(ctx, request, reply), {
        title: `Remove the group ${group.name}?`,
        consequences: `Queries no longer find ${source} ${group.id} (${group.organization_ids.length} organizations). The organizations themselves stay. You can define the group again later.`,
        action: `/admin/groups/${source}/${encodeURIComponent(group.id)}/remove`,
        confirmLabel: 'Remove the group',
        cancelHref: `/admin/groups#group-${source}-${group.id}`,
      }).toString(),
    );
  });

  app.post<WithGroup>('/admin/groups/:source/:id/remove', withCsrf, async (request, reply) => {
    requireAdmin(request);
    const { source, id } = request.params;
    // Only the confirmation page's form says yes; anything else is sent there first.
    if (field(request.body, 'confirm') !== 'yes')
      return reply.redirect(`/admin/groups/${source}/${encodeURIComponent(id)}/remove`, 303);
    try {
      await groups.remove(source, id);
      return await reply.redirect('/admin/groups?notice=removed', 303);
    } catch (error) {
      if (!isQuarryError(error)) throw error;
      return send(request, reply, { error });
    }
  });
}
